import { describe, expect, it } from "vitest";
import { detectMediaKind, formatFileSize } from "./media-type";

const bytes = (...parts: (string | number[])[]) =>
  Uint8Array.from(
    parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );

describe("detectMediaKind", () => {
  it.each([
    [bytes([0xff, 0xd8, 0xff, 0xe0], "\0\x10JFIF\0"), "jpg"],
    [bytes([0x89], "PNG\r\n\x1a\n\0\0\0\rIHDR"), "png"],
    [bytes("GIF89a\x01\0\x01\0\0\0\0\0\0\0"), "gif"],
    [bytes("RIFF\0\0\0\0WEBPVP8 "), "webp"],
    [bytes("RIFF\0\0\0\0WAVEfmt "), "wav"],
    [bytes([0, 0, 0, 0x20], "ftypisom\0\0\0\0"), "mp4"],
    [bytes([0, 0, 0, 0x14], "ftypqt  \0\0\0\0"), "mov"],
    [bytes("ID3\x04\0\0\0\0\0\0"), "mp3"],
    [bytes([0xff, 0xfb, 0x90, 0x64]), "mp3"],
  ])("recognises %#", (head, ext) => {
    expect(detectMediaKind(head)?.ext).toBe(ext);
  });
  it("refuses anything else, whatever its name", () => {
    expect(detectMediaKind(bytes("<html><script>alert(1)</script>"))).toBeNull();
    expect(detectMediaKind(bytes("%PDF-1.7\n%"))).toBeNull();
    expect(detectMediaKind(bytes("RIFF\0\0\0\0AVI LIST"))).toBeNull();
    expect(detectMediaKind(bytes([0, 0, 0, 0x20], "ftypheic\0\0\0\0"))).toBeNull();
    expect(detectMediaKind(bytes("ab"))).toBeNull();
  });
  it("shows sizes under 1 MB in KB, larger ones in MB with one decimal", () => {
    expect(formatFileSize(512 * 1024)).toBe("512 KB");
    expect(formatFileSize(300)).toBe("1 KB");
    expect(formatFileSize(0)).toBe("0 KB");
    expect(formatFileSize(1024 * 1024 - 1)).toBe("1.0 MB");
    expect(formatFileSize(1024 * 1024)).toBe("1.0 MB");
    expect(formatFileSize(2.4 * 1024 * 1024)).toBe("2.4 MB");
    expect(formatFileSize(1_572_864)).toBe("1.5 MB");
    expect(formatFileSize(150 * 1024 * 1024)).toBe("150.0 MB");
  });
});
