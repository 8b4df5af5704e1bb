import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import type { Actor } from "~/features/music-sessions/music-sessions.policy";
import { getOwnedSession, type MediaItem } from "~/features/music-sessions/music-sessions.server";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import type { Storage } from "~/lib/storage.server";
import type { Queryable } from "~db/client";
import { musicSessions, sessionMedia } from "~db/schema";
import {
  detectMediaKind,
  limitBytesFor,
  type MediaKind,
  SNIFF_BYTES,
  tooLargeMessage,
  UNSUPPORTED_MEDIA_MESSAGE,
} from "./media-type";

export const UPLOAD_FAILED_MESSAGE = "Failed to upload media. Please try again.";
const PREVIEW_WIDTH = 640;

type UploadCtx = Pick<AppContext, "db" | "auth" | "env" | "storage" | "logger">;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });

class TooLarge extends Error {}
class UnreadableImage extends Error {}

/** Key of a new file: media/{sessionId}/{timestamp}-{random}{suffix}.{ext} (see assertSafeKey). */
function newKey(
  sessionId: string,
  ext: string,
  stem = `${Date.now()}-${randomBytes(6).toString("hex")}`,
) {
  return { stem, key: `media/${sessionId.toLowerCase()}/${stem}.${ext}` };
}

/** Reads until `want` bytes (or the end) have arrived; keeps what was read for the file. */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, want: number) {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < want) {
    const { done, value } = await reader.read();
    if (done) return { chunks, length, ended: true };
    chunks.push(value);
    length += value.byteLength;
  }
  return { chunks, length, ended: false };
}

/** The rest of the body as a Node stream that fails once more than `limit` bytes went through. */
function limitedStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Uint8Array[],
  ended: boolean,
  limit: number,
) {
  let total = 0;
  async function* body() {
    for (const chunk of first) {
      total += chunk.byteLength;
      if (total > limit) throw new TooLarge();
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    if (ended) return;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
      if (total > limit) throw new TooLarge();
      yield Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return Readable.from(body(), { objectMode: false });
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
 * with the file. The type comes from the first bytes; limits apply while streaming.
 */
export async function handleMediaUpload(request: Request, ctx: UploadCtx, sessionId: string) {
  const user = await getCurrentUser(request, ctx);
  if (!user) return json(401, { error: "Please sign in to upload media." });
  const session = await getOwnedSession(ctx.db, user, sessionId);
  if (!session) return json(404, { error: "Session not found." });
  if (!request.body) return json(400, { error: "Please choose a file to upload." });

  const url = new URL(request.url);
  const description = (url.searchParams.get("description") ?? "").trim().slice(0, 500) || null;
  const limits = ctx.env.mediaLimitsMb;
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);

  const reader = request.body.getReader();
  const head = await readHead(reader, SNIFF_BYTES);
  if (head.length === 0) return json(400, { error: "Please choose a file to upload." });
  const kind = detectMediaKind(Buffer.concat(head.chunks).subarray(0, SNIFF_BYTES));
  if (!kind) return json(415, { error: UNSUPPORTED_MEDIA_MESSAGE });
  const limit = limitBytesFor(kind, limits);
  if (declared > limit) return json(413, { error: tooLargeMessage(kind, limits) });
  const fileName = cleanFileName(url.searchParams.get("fileName"), kind.ext);

  const { stem, key } = newKey(session.id, kind.ext);
  const previewKey =
    kind.mediaType === "photo" ? newKey(session.id, "webp", `${stem}-preview`).key : null;
  const written: string[] = [];
  try {
    const body = limitedStream(reader, head.chunks, head.ended, limit);
    let size: number;
    if (kind.mediaType === "photo" && previewKey) {
      // Images are small by rule (the limit bounds this buffer) and sharp needs them whole.
      const input = await collect(body);
      const { file, preview } = await processImage(input, kind).catch(() => {
        throw new UnreadableImage();
      });
      written.push(key, previewKey);
      size = (await ctx.storage.put(key, file, kind.mime)).size;
      await ctx.storage.put(previewKey, preview, "image/webp");
    } else {
      written.push(key);
      size = (await ctx.storage.put(key, body, kind.mime)).size;
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
        description,
        isFeatured: false,
        portfolioCategory: kind.mediaType,
      })
      .returning({ id: sessionMedia.id, createdAt: sessionMedia.createdAt });
    if (!row) throw new Error("insert returned no row");
    const media: MediaItem = {
      id: row.id,
      mediaType: kind.mediaType,
      filePath: key,
      previewPath: previewKey,
      fileName,
      fileSize: size,
      mimeType: kind.mime,
      description,
      createdAt: row.createdAt,
    };
    return json(201, { media });
  } catch (error) {
    await Promise.allSettled(written.map((k) => ctx.storage.delete(k)));
    if (error instanceof TooLarge) return json(413, { error: tooLargeMessage(kind, limits) });
    if (error instanceof UnreadableImage)
      return json(415, { error: "This image could not be read. Please choose another file." });
    ctx.logger.error({ err: error, sessionId }, "media upload failed");
    return json(500, { error: UPLOAD_FAILED_MESSAGE });
  }
}

/** Deletes a media item of the actor's own session, and its files; false when not theirs. */
export async function deleteMedia(db: Queryable, storage: Storage, actor: Actor, mediaId: string) {
  if (!actor?.artistProfileId || !isUuid(mediaId)) return false;
  const [item] = await db
    .select({
      id: sessionMedia.id,
      filePath: sessionMedia.filePath,
      previewPath: sessionMedia.previewPath,
    })
    .from(sessionMedia)
    .innerJoin(musicSessions, eq(musicSessions.id, sessionMedia.sessionId))
    .where(
      and(eq(sessionMedia.id, mediaId), eq(musicSessions.artistProfileId, actor.artistProfileId)),
    );
  if (!item) return false;
  await db.delete(sessionMedia).where(eq(sessionMedia.id, item.id));
  await Promise.allSettled(
    [item.filePath, item.previewPath].flatMap((k) => (k ? [storage.delete(k)] : [])),
  );
  return true;
}
