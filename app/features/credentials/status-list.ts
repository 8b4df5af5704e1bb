import { gunzipSync, gzipSync } from "node:zlib";
import { STATUS_LIST_SIZE } from "./credentials.constants";

/**
 * W3C Bitstring Status List: bit i (counting from the left of the first byte) set means the
 * credential at index i is revoked. Published GZIP-compressed, base64url, multibase "u".
 */
export function encodeStatusList(setBits: Iterable<number>): string {
  const bytes = new Uint8Array(STATUS_LIST_SIZE / 8);
  for (const i of setBits) {
    if (i < 0 || i >= STATUS_LIST_SIZE) continue;
    bytes[i >> 3] = (bytes[i >> 3] ?? 0) | (0x80 >> (i & 7));
  }
  return `u${gzipSync(bytes).toString("base64url")}`;
}

/** Whether bit `index` is set; null when the list cannot be read (or would be absurdly large). */
export function statusBit(encodedList: string, index: number): boolean | null {
  if (!encodedList.startsWith("u") || !Number.isInteger(index) || index < 0) return null;
  try {
    const bytes = gunzipSync(Buffer.from(encodedList.slice(1), "base64url"), {
      maxOutputLength: 16 * 1024 * 1024,
    });
    if (index >= bytes.length * 8) return null;
    return ((bytes[index >> 3] ?? 0) & (0x80 >> (index & 7))) !== 0;
  } catch {
    return null;
  }
}

/** Which list holds an index, and where in it. */
export const statusPlaceOf = (statusIndex: number) => ({
  listNumber: Math.floor(statusIndex / STATUS_LIST_SIZE),
  offset: statusIndex % STATUS_LIST_SIZE,
});

export const statusListUrl = (appUrl: URL, listNumber: number) =>
  new URL(`/credentials/status/${listNumber}`, appUrl).href;
