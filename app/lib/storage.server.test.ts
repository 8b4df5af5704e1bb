import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { afterAll, describe, expect, it } from "vitest";
import { createStorage, parseRange } from "./storage.server";

const root = mkdtempSync(path.join(tmpdir(), "gl-storage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("local storage", () => {
  const storage = createStorage({ driver: "local", root });

  it("streams a file in, reads it whole or by range, and deletes it", async () => {
    const stored = await storage.put(
      "media/abc/file-1.mp3",
      Readable.from(["hello ", "world"]),
      "audio/mpeg",
    );
    expect(stored).toEqual({ size: 11, contentType: "audio/mpeg" });
    const whole = await storage.get("media/abc/file-1.mp3");
    expect(whole?.contentType).toBe("audio/mpeg");
    expect(await text(whole!.body)).toBe("hello world");
    const part = await storage.get("media/abc/file-1.mp3", { start: 6, end: 10 });
    expect(await text(part!.body)).toBe("world");
    await storage.delete("media/abc/file-1.mp3");
    expect(await storage.stat("media/abc/file-1.mp3")).toBeNull();
  });

  it("refuses keys that could leave its folder", async () => {
    for (const key of [
      "../etc/passwd.txt",
      "/abs/file.png",
      "a//b.png",
      "a/../../b.png",
      "UPPER.png",
    ]) {
      await expect(storage.put(key, Buffer.from("x"), "image/png")).rejects.toThrow(
        /Unsafe storage key/,
      );
    }
  });
});

describe("parseRange", () => {
  it.each([
    [undefined, null],
    ["bytes=0-99", { start: 0, end: 99 }],
    ["bytes=100-", { start: 100, end: 999 }],
    ["bytes=-100", { start: 900, end: 999 }],
    ["bytes=900-5000", { start: 900, end: 999 }],
    ["bytes=1000-", "unsatisfiable"],
    ["bytes=5-2", "unsatisfiable"],
    ["bytes=0-1,5-6", null],
    ["items=0-1", null],
  ])("%s", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});
