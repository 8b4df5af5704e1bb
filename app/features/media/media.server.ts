import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { desc, eq } from "drizzle-orm";
import sharp from "sharp";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { canEditSession } from "~/features/music-sessions/music-sessions.policy";
import { getOwnedSession } from "~/features/music-sessions/music-sessions.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { isProblem, Problem, refuse, statusOf } from "~/lib/problem";
import { musicSessions, sessionMedia } from "~db/schema";
import {
  detectMediaKind,
  limitBytesFor,
  type MediaKind,
  SNIFF_BYTES,
  tooLargeMessage,
  UNSUPPORTED_MEDIA_MESSAGE,
} from "./media-type";

export type MediaItem = {
  id: string;
  mediaType: "photo" | "video" | "audio";
  filePath: string;
  previewPath: string | null;
  fileName: string;
  fileSize: number;
  mimeType: string;
  /** SHA-256 (hex) of the stored file; null for files uploaded before hashes were kept. */
  sha256: string | null;
  description: string | null;
  createdAt: Date;
};

/** A session's media, newest first (none for an id that is no session's). Public, as the page is. */
export async function listMedia(
  { db }: Pick<AppContext, "db">,
  sessionId: string,
): Promise<MediaItem[]> {
  if (!isUuid(sessionId)) return [];
  return db
    .select({
      id: sessionMedia.id,
      mediaType: sessionMedia.mediaType,
      filePath: sessionMedia.filePath,
      previewPath: sessionMedia.previewPath,
      fileName: sessionMedia.fileName,
      fileSize: sessionMedia.fileSize,
      mimeType: sessionMedia.mimeType,
      sha256: sessionMedia.sha256,
      description: sessionMedia.description,
      createdAt: sessionMedia.createdAt,
    })
    .from(sessionMedia)
    .where(eq(sessionMedia.sessionId, sessionId))
    .orderBy(desc(sessionMedia.createdAt), sessionMedia.id);
}

const UPLOAD_FAILED_MESSAGE = "Failed to upload media. Please try again.";
const PREVIEW_WIDTH = 640;

type UploadCtx = Pick<AppContext, "db" | "auth" | "env" | "storage" | "logger">;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });

/**
 * Why an upload was refused, as the `reason` of its Problem. Three of them have a more precise
 * HTTP status than their code: a file over its limit is 413, one that is not (readable) media 415.
 */
const UPLOAD_STATUS: Record<string, number> = {
  too_large: 413,
  unsupported_type: 415,
  unreadable_image: 415,
};

const uploadStatus = (problem: Problem) =>
  (problem.reason && UPLOAD_STATUS[problem.reason]) || statusOf(problem.code);

const INTERRUPTED_MESSAGE = "The upload was interrupted. Please try again.";
const NUL_DESCRIPTION_MESSAGE =
  "The description contains a character we can't accept. Please retype it.";

/** Key of a new file: media/{sessionId}/{timestamp}-{random}{suffix}.{ext} (see assertSafeKey). */
function newKey(
  sessionId: string,
  ext: string,
  stem = `${Date.now()}-${randomBytes(6).toString("hex")}`,
) {
  return { stem, key: `media/${sessionId.toLowerCase()}/${stem}.${ext}` };
}

/** The next chunk of the body; a body that breaks off (a dropped connection) is refused. */
async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch {
    return refuse("invalid", INTERRUPTED_MESSAGE, { reason: "interrupted" });
  }
}

/** Reads until `want` bytes (or the end) have arrived; keeps what was read for the file. */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, want: number) {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < want) {
    const { done, value } = await readChunk(reader);
    if (done) return { chunks, length, ended: true };
    chunks.push(value);
    length += value.byteLength;
  }
  return { chunks, length, ended: false };
}

/**
 * The rest of the body as a Node stream that fails once more than `limit` bytes went through.
 * `refusal()` is the Problem that stopped it, if any, whatever error the storage reports for it.
 * `sha256()` is the hash of every byte that went through, computed on the way (no second read).
 */
function limitedStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Uint8Array[],
  ended: boolean,
  limit: number,
  tooLarge: string,
) {
  let total = 0;
  let stopped: Problem | null = null;
  const hash = createHash("sha256");
  const stop = (error: unknown): never => {
    if (isProblem(error)) stopped = error;
    throw error;
  };
  const count = (chunk: Uint8Array) => {
    total += chunk.byteLength;
    if (total > limit) stop(new Problem("invalid", tooLarge, "too_large"));
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    hash.update(bytes);
    return bytes;
  };
  async function* body() {
    for (const chunk of first) yield count(chunk);
    if (ended) return;
    for (;;) {
      const { done, value } = await readChunk(reader).catch(stop);
      if (done) return;
      yield count(value);
    }
  }
  return {
    stream: Readable.from(body(), { objectMode: false }),
    refusal: () => stopped,
    sha256: () => hash.digest("hex"),
  };
}

async function collect(stream: Readable) {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Re-encodes an image (which drops EXIF, GPS and every other bit of metadata) plus a preview. */
async function processImage(input: Buffer, kind: MediaKind) {
  const animated = kind.ext === "gif" || kind.ext === "webp";
  const base = () => sharp(input, { limitInputPixels: 100_000_000, animated }).rotate();
  let image = base();
  if (kind.ext === "jpg") image = image.jpeg({ quality: 88, mozjpeg: true });
  else if (kind.ext === "png") image = image.png();
  else if (kind.ext === "gif") image = image.gif();
  else image = image.webp({ quality: 85 });
  const [file, preview] = await Promise.all([
    image.toBuffer(),
    sharp(input, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width: PREVIEW_WIDTH, withoutEnlargement: true })
      .webp({ quality: 78 })
      .toBuffer(),
  ]);
  return { file, preview };
}

function cleanFileName(raw: string | null, ext: string) {
  const name = (raw ?? "")
    .replace(/[/\\]/g, "")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we strip.
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 200);
  return name || `upload.${ext}`;
}

/**
 * PUT /api/sessions/:sessionId/media — the request body is the file itself (the browser sends
 * it with XMLHttpRequest for a real progress bar). It streams to storage: memory does not grow
 * with the file. The type comes from the first bytes, never from a declared content type, so a
 * JSON or form body is refused as an unsupported file (415); limits apply while streaming.
 */
export async function handleMediaUpload(request: Request, ctx: UploadCtx, sessionId: string) {
  const user = await getCurrentUser(request, ctx);
  if (!user) return json(401, { error: "Please sign in to upload media." });
  const url = new URL(request.url);
  try {
    const media = await uploadMedia(ctx, user, {
      sessionId,
      body: request.body,
      declaredBytes: Number(request.headers.get("content-length") ?? Number.NaN),
      fileName: url.searchParams.get("fileName"),
      description: url.searchParams.get("description"),
      // Offered to the portfolio unless the form says "0" (an older client sends nothing: no).
      portfolio: url.searchParams.get("portfolio") === "1",
    });
    return json(201, { media });
  } catch (error) {
    if (isProblem(error))
      return json(uploadStatus(error), { error: error.message, reason: error.reason });
    ctx.logger.error({ err: error, sessionId }, "media upload failed");
    return json(500, { error: UPLOAD_FAILED_MESSAGE });
  }
}

/** Stores one file for the actor's own session and lists it; refuses with a Problem. */
export async function uploadMedia(
  ctx: Pick<AppContext, "db" | "env" | "storage">,
  actor: Actor,
  input: {
    sessionId: string;
    body: ReadableStream<Uint8Array> | null;
    declaredBytes: number;
    fileName: string | null;
    description: string | null;
    /** Also shown in the artist's portfolio (the upload form's 'Add to my portfolio'). */
    portfolio?: boolean;
  },
): Promise<MediaItem> {
  const session = await getOwnedSession(ctx, actor, input.sessionId);
  if (!session) refuse("not_found", "Session not found.");
  if (!input.body) refuse("invalid", "Please choose a file to upload.", { reason: "no_file" });
  if (input.description?.includes("\u0000"))
    refuse("invalid", NUL_DESCRIPTION_MESSAGE, { reason: "unreadable_text" });
  const description = (input.description ?? "").trim().slice(0, 500) || null;
  const limits = ctx.env.mediaLimitsMb;

  const reader = input.body.getReader();
  const head = await readHead(reader, SNIFF_BYTES);
  if (head.length === 0)
    refuse("invalid", "Please choose a file to upload.", { reason: "no_file" });
  const kind = detectMediaKind(Buffer.concat(head.chunks).subarray(0, SNIFF_BYTES));
  if (!kind) refuse("invalid", UNSUPPORTED_MEDIA_MESSAGE, { reason: "unsupported_type" });
  const limit = limitBytesFor(kind, limits);
  const tooLarge = tooLargeMessage(kind, limits);
  if (input.declaredBytes > limit) refuse("invalid", tooLarge, { reason: "too_large" });
  const fileName = cleanFileName(input.fileName, kind.ext);

  const { stem, key } = newKey(session.id, kind.ext);
  const previewKey =
    kind.mediaType === "photo" ? newKey(session.id, "webp", `${stem}-preview`).key : null;
  const written: string[] = [];
  const body = limitedStream(reader, head.chunks, head.ended, limit, tooLarge);
  try {
    let size: number;
    // The evidence hash is of the file as stored and served (decision 017): what anyone who
    // downloads it can check. For audio and video that is the uploaded bytes, hashed as they
    // stream through; an image is re-encoded (its metadata dropped), so its new bytes are hashed.
    let sha256: string;
    if (kind.mediaType === "photo" && previewKey) {
      // Images are small by rule (the limit bounds this buffer) and sharp needs them whole.
      const input = await collect(body.stream);
      const { file, preview } = await processImage(input, kind).catch(() =>
        refuse("invalid", "This image could not be read. Please choose another file.", {
          reason: "unreadable_image",
        }),
      );
      written.push(key, previewKey);
      sha256 = createHash("sha256").update(file).digest("hex");
      size = (await ctx.storage.put(key, file, kind.mime)).size;
      await ctx.storage.put(previewKey, preview, "image/webp");
    } else {
      written.push(key);
      size = (await ctx.storage.put(key, body.stream, kind.mime)).size;
      sha256 = body.sha256();
    }
    const [row] = await ctx.db
      .insert(sessionMedia)
      .values({
        sessionId: session.id,
        mediaType: kind.mediaType,
        filePath: key,
        previewPath: previewKey,
        fileName,
        fileSize: size,
        mimeType: kind.mime,
        sha256,
        description,
        isFeatured: false,
        isPortfolioFeatured: input.portfolio === true,
        portfolioSortOrder: input.portfolio === true ? Date.now() : 0,
        portfolioCategory: kind.mediaType,
      })
      .returning({ id: sessionMedia.id, createdAt: sessionMedia.createdAt });
    if (!row) throw new Error("insert returned no row");
    return {
      id: row.id,
      mediaType: kind.mediaType,
      filePath: key,
      previewPath: previewKey,
      fileName,
      fileSize: size,
      mimeType: kind.mime,
      sha256,
      description,
      createdAt: row.createdAt,
    };
  } catch (error) {
    await Promise.allSettled(written.map((k) => ctx.storage.delete(k)));
    // The storage may report a stopped stream in its own words: the refusal is what happened.
    throw body.refusal() ?? error;
  }
}

/** Deletes a media item of the actor's own session, and its files; anyone else's is "not found". */
export async function deleteMedia(
  ctx: Pick<AppContext, "db" | "storage">,
  actor: Actor,
  mediaId: string,
): Promise<void> {
  if (!isUuid(mediaId)) refuse("not_found", "Media not found.");
  const [item] = await ctx.db
    .select({
      id: sessionMedia.id,
      filePath: sessionMedia.filePath,
      previewPath: sessionMedia.previewPath,
      artistProfileId: musicSessions.artistProfileId,
    })
    .from(sessionMedia)
    .innerJoin(musicSessions, eq(musicSessions.id, sessionMedia.sessionId))
    .where(eq(sessionMedia.id, mediaId));
  if (!item || !canEditSession(actor, item)) refuse("not_found", "Media not found.");
  await ctx.db.delete(sessionMedia).where(eq(sessionMedia.id, item.id));
  await Promise.allSettled(
    [item.filePath, item.previewPath].flatMap((k) => (k ? [ctx.storage.delete(k)] : [])),
  );
}
