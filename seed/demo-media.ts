/**
 * Pictures and sound for the demo artists, made on this machine when the seed runs (nothing is
 * downloaded): a portrait with the artist's initials, stage photos drawn as SVG and rendered by
 * sharp, and a few seconds of a melody synthesised as a WAV file. The seed stores them through the
 * app's own upload path (seed/seed.ts), so they get the same checks, previews and limits as a
 * musician's files.
 */
import { createHash } from "node:crypto";
import { endianness } from "node:os";
import sharp from "sharp";
import { initials } from "~/features/artists/format";

/** A number from 0 to 1 that always comes out the same for the same words. */
function unit(...words: string[]) {
  const h = createHash("sha256").update(words.join("\u0000")).digest();
  return h.readUInt32BE(0) / 0xffffffff;
}

const hueOf = (name: string) => Math.round(unit("hue", name) * 360);

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c,
  );

const FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";

/** A square portrait: a two-colour gradient, soft rings and the artist's initials. */
export async function demoAvatar(name: string): Promise<Buffer> {
  const hue = hueOf(name);
  // Drawn at the size the avatar path stores (256 px), so its re-encoding has little to do.
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 512 512">
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,52%)"/>
      <stop offset="1" stop-color="hsl(${(hue + 50) % 360},75%,32%)"/>
    </linearGradient>
  </defs>
  <rect width="512" height="512" fill="url(#g)"/>
  <circle cx="${140 + Math.round(unit("x", name) * 240)}" cy="120" r="180" fill="#fff" fill-opacity="0.10"/>
  <circle cx="420" cy="440" r="150" fill="#000" fill-opacity="0.12"/>
  <text x="256" y="256" dy="0.35em" text-anchor="middle" font-family="${FONT}" font-weight="700"
    font-size="196" fill="#fff" fill-opacity="0.95">${escapeXml(initials(name))}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
}

/**
 * A stage photo: a dusky gradient, coloured spotlights, a row of silhouettes on the stage and the
 * audience in front. No words in the picture (pages crop photos to squares; the caption is the
 * media's description). `variant` changes the light and the line-up, so one artist's photos differ.
 */
export async function demoPhoto(name: string, variant: number): Promise<Buffer> {
  const width = 720;
  const height = 480;
  const hue = (hueOf(name) + variant * 70) % 360;
  const lights = [0, 1, 2]
    .map((k) => {
      const x = Math.round((0.2 + 0.3 * k + 0.1 * (unit(name, `${variant}:${k}`) - 0.5)) * width);
      const h2 = (hue + k * 40) % 360;
      return `<polygon points="${x},0 ${x - 150},${height - 140} ${x + 150},${height - 140}" fill="hsl(${h2},90%,70%)" fill-opacity="0.22"/>
  <ellipse cx="${x}" cy="${height - 140}" rx="160" ry="26" fill="hsl(${h2},90%,75%)" fill-opacity="0.35"/>`;
    })
    .join("\n  ");
  const lineUp = 2 + (variant % 3);
  const players = Array.from({ length: lineUp }, (_, k) => {
    const span = width / (lineUp + 1);
    const x = Math.round(span * (k + 1));
    const tall = 150 + Math.round(unit(name, `p${variant}:${k}`) * 60);
    const top = height - 140 - tall;
    return `<circle cx="${x}" cy="${top - 22}" r="24" fill="#0b0b14"/>
  <rect x="${x - 30}" y="${top}" width="60" height="${tall}" rx="26" fill="#0b0b14"/>`;
  }).join("\n  ");
  // The audience: a row of heads and shoulders in front of the stage.
  const crowd = Array.from({ length: 13 }, (_, k) => {
    const x = Math.round(k * 78 + unit(name, `c${variant}:${k}`) * 30);
    const r = 26 + Math.round(unit(name, `r${variant}:${k}`) * 10);
    return `<circle cx="${x}" cy="${height - 96}" r="${r}" fill="#05050a"/>
  <ellipse cx="${x}" cy="${height - 30}" rx="${r + 26}" ry="52" fill="#05050a"/>`;
  }).join("\n  ");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue},45%,14%)"/>
      <stop offset="1" stop-color="hsl(${(hue + 30) % 360},55%,30%)"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#sky)"/>
  ${lights}
  ${players}
  <rect y="${height - 140}" width="${width}" height="140" fill="#11111c"/>
  ${crowd}
  <rect y="${height - 70}" width="${width}" height="70" fill="#000" fill-opacity="0.45"/>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

const SAMPLE_RATE = 16_000;
/** A major pentatonic scale over two octaves, as semitones above the root. */
const SCALE = [0, 2, 4, 7, 9, 12, 14, 16, 19, 21];

/**
 * A few seconds of a tune (16-bit mono PCM WAV): eight notes of a pentatonic scale picked from the
 * artist's name, each a sine with its octave, shaped by a short attack and a decay so it sounds
 * plucked rather than beeped.
 */
export function demoMelodyWav(name: string, seconds = 4): Buffer {
  const samples = SAMPLE_RATE * seconds;
  const pcm = new Int16Array(samples);
  const root = 196 * 2 ** (Math.floor(unit("root", name) * 7) / 12); // G3 and up
  const notes = Array.from({ length: 8 }, (_, k) => {
    const step = SCALE[Math.floor(unit(name, `note${k}`) * SCALE.length)] ?? 0;
    return root * 2 ** (step / 12);
  });
  const noteLength = Math.floor(samples / notes.length);
  for (const [k, f] of notes.entries()) {
    const w = (2 * Math.PI * f) / SAMPLE_RATE;
    for (let n = 0; n < noteLength; n++) {
      const t = n / SAMPLE_RATE;
      const envelope = Math.min(1, t / 0.01) * Math.exp(-3 * t);
      const value = envelope * (0.6 * Math.sin(w * n) + 0.2 * Math.sin(2 * w * n));
      pcm[k * noteLength + n] = Math.round(value * 0.8 * 32767);
    }
  }
  const data = Buffer.from(pcm.buffer);
  if (endianness() === "BE") data.swap16(); // WAV samples are little-endian
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28); // bytes per second
  header.writeUInt16LE(2, 32); // bytes per frame
  header.writeUInt16LE(16, 34); // bits per sample
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
