import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { refuse } from "~/lib/problem";
import type { Storage } from "~/lib/storage.server";

const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
const ACCEPTED = new Set(["jpeg", "png", "webp"]);

/**
 * Checks the image by its bytes (not its name or declared type), re-encodes it as a 256 px WebP
 * square (which drops every bit of metadata, GPS included) and stores it under a new key.
 * A file that is not such an image is refused as `invalid`.
 */
export async function storeAvatar(storage: Storage, artistId: string, file: File): Promise<string> {
  if (file.size === 0) refuse("invalid", "Please choose an image file.");
  if (file.size > AVATAR_MAX_BYTES) refuse("invalid", "Profile pictures can be at most 5 MB.");
  const input = Buffer.from(await file.arrayBuffer());
  let format: string | undefined;
  try {
    format = (await sharp(input).metadata()).format;
  } catch {
    format = undefined;
  }
  if (!format || !ACCEPTED.has(format))
    refuse("invalid", "Please choose a JPG, PNG or WebP image.");
  let output: Buffer;
  try {
    output = await sharp(input, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(256, 256, { fit: "cover" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    // A header that reads as an image over a body that does not decode (truncated, too large).
    refuse("invalid", "Upload Failed. Please try again.");
  }
  const key = `avatars/${artistId}-${randomUUID()}.webp`;
  await storage.put(key, output, "image/webp");
  return key;
}
