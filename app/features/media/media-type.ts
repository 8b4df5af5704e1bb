/**
 * The allowed media: JPG, PNG, GIF and WebP images, MP3 and WAV audio, MP4 and MOV video, each
 * recognised from the file's first bytes, never from its name or the type the browser declares.
 */
export type MediaKind = {
  ext: "jpg" | "png" | "gif" | "webp" | "mp4" | "mov" | "mp3" | "wav";
  mime: string;
  mediaType: "photo" | "video" | "audio";
};

const KINDS: Record<MediaKind["ext"], MediaKind> = {
  jpg: { ext: "jpg", mime: "image/jpeg", mediaType: "photo" },
  png: { ext: "png", mime: "image/png", mediaType: "photo" },
  gif: { ext: "gif", mime: "image/gif", mediaType: "photo" },
  webp: { ext: "webp", mime: "image/webp", mediaType: "photo" },
  mp4: { ext: "mp4", mime: "video/mp4", mediaType: "video" },
  mov: { ext: "mov", mime: "video/quicktime", mediaType: "video" },
  mp3: { ext: "mp3", mime: "audio/mpeg", mediaType: "audio" },
  wav: { ext: "wav", mime: "audio/wav", mediaType: "audio" },
};

/** Bytes needed to tell every allowed type apart. */
export const SNIFF_BYTES = 16;

const MP4_BRANDS = new Set([
  "isom",
  "iso2",
  "iso3",
  "iso4",
  "iso5",
  "iso6",
  "mp41",
  "mp42",
  "avc1",
  "M4V ",
  "dash",
  "mmp4",
  "3gp4",
  "3gp5",
]);
const MOV_ATOMS = new Set(["moov", "mdat", "wide", "free", "pnot", "skip"]);

const ascii = (b: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...b.subarray(from, to));

export function detectMediaKind(head: Uint8Array): MediaKind | null {
  if (head.length < 4) return null;
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return KINDS.jpg;
  if (ascii(head, 0, 8) === "\x89PNG\r\n\x1a\n") return KINDS.png;
  if (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a") return KINDS.gif;
  if (ascii(head, 0, 4) === "RIFF") {
    const form = ascii(head, 8, 12);
    if (form === "WEBP") return KINDS.webp;
    if (form === "WAVE") return KINDS.wav;
    return null;
  }
  const box = ascii(head, 4, 8);
  if (box === "ftyp") {
    const brand = ascii(head, 8, 12);
    if (brand === "qt  ") return KINDS.mov;
    return MP4_BRANDS.has(brand) ? KINDS.mp4 : null;
  }
  if (MOV_ATOMS.has(box)) return KINDS.mov;
  if (ascii(head, 0, 3) === "ID3") return KINDS.mp3;
  // An MPEG audio frame header: sync bits, a known version, layer III.
  const b1 = head[1] ?? 0;
  if (head[0] === 0xff && (b1 & 0xe0) === 0xe0 && ((b1 >> 3) & 3) !== 1 && ((b1 >> 1) & 3) === 1)
    return KINDS.mp3;
  return null;
}

export const ACCEPTED_MEDIA =
  "image/jpeg,image/png,image/gif,image/webp,video/mp4,video/quicktime,audio/mpeg,audio/wav,audio/x-wav,.jpg,.jpeg,.png,.gif,.webp,.mp4,.mov,.mp3,.wav";

export const UNSUPPORTED_MEDIA_MESSAGE =
  "This file type is not supported. Please choose a JPG, PNG, GIF or WebP image, an MP4 or MOV video, or an MP3 or WAV audio file.";

export type MediaLimitsMb = { image: number; audio: number; video: number };

export function limitBytesFor(kind: MediaKind, limits: MediaLimitsMb) {
  const mb =
    kind.mediaType === "photo"
      ? limits.image
      : kind.mediaType === "audio"
        ? limits.audio
        : limits.video;
  return mb * 1024 * 1024;
}

export function tooLargeMessage(kind: MediaKind, limits: MediaLimitsMb) {
  if (kind.mediaType === "photo") return `Images can be at most ${limits.image} MB.`;
  if (kind.mediaType === "audio") return `Audio files can be at most ${limits.audio} MB.`;
  return `Videos can be at most ${limits.video} MB.`;
}

const KB = 1024;
const MB = 1024 * KB;

/** A file's size: under 1 MB in whole KB ("512 KB"), from 1 MB in MB with one decimal ("2.4 MB"). */
export function formatFileSize(bytes: number) {
  const kb = Math.round(bytes / KB);
  if (bytes < MB && kb < 1024) return `${bytes > 0 ? Math.max(1, kb) : 0} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}
