// The Noto fonts every GigLedger PDF draws with (docs/decisions/049), read once per process, and
// the rule that sends each run of text to the face that holds its characters.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { inflateSync } from "node:zlib";

// Fontsource ships Noto Sans in subsets: "latin" lacks ₹, "latin-ext" has ₹ but no Latin letters,
// "devanagari" has Devanagari. Each run of text goes to the face that holds it. WOFF, not WOFF2:
// pdfkit's WOFF2 glyphs came out unreadable.
export type Script = "latin" | "latinExt" | "devanagari";
export type Weight = "regular" | "bold";
const FONT_FILES: Record<Script, Record<Weight, string>> = {
  latin: {
    regular: "@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff",
    bold: "@fontsource/noto-sans/files/noto-sans-latin-700-normal.woff",
  },
  latinExt: {
    regular: "@fontsource/noto-sans/files/noto-sans-latin-ext-400-normal.woff",
    bold: "@fontsource/noto-sans/files/noto-sans-latin-ext-700-normal.woff",
  },
  devanagari: {
    regular:
      "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff",
    bold: "@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff",
  },
};

/** The name a face is registered under in a document: `${script}-${weight}`. */
export const fontName = (script: Script, weight: Weight) => `${script}-${weight}`;

/**
 * A WOFF 1.0 file as the plain OpenType font it wraps. fontkit reads WOFF tables through a
 * JavaScript inflate on every access (the whole glyf table again for each glyph), which made a
 * render take seconds; inflated once here with zlib, a render takes a fraction of that.
 */
function sfntOfWoff(woff: Buffer): Buffer {
  if (woff.toString("latin1", 0, 4) !== "wOFF") throw new Error("Not a WOFF font");
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + 20 * i;
    const offset = woff.readUInt32BE(at + 4);
    const compressed = woff.readUInt32BE(at + 8);
    const length = woff.readUInt32BE(at + 12);
    const stored = woff.subarray(offset, offset + compressed);
    return {
      tag: woff.subarray(at, at + 4),
      checksum: woff.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(stored) : stored,
    };
  });
  const log2 = Math.floor(Math.log2(count));
  const header = Buffer.alloc(12 + 16 * count);
  header.writeUInt32BE(woff.readUInt32BE(4), 0); // the wrapped font's flavour
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(16 * 2 ** log2, 6);
  header.writeUInt16BE(log2, 8);
  header.writeUInt16BE(16 * (count - 2 ** log2), 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const record = 12 + 16 * i;
    table.tag.copy(header, record);
    header.writeUInt32BE(table.checksum, record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(table.data.length, record + 12);
    const padded = Buffer.alloc(Math.ceil(table.data.length / 4) * 4);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

let fontFiles: Map<string, Buffer> | null = null;

/** The six fonts by their registered names, read and unwrapped once per process. */
export function pdfFonts(): ReadonlyMap<string, Buffer> {
  if (fontFiles) return fontFiles;
  // Resolved from node_modules at run time: the server bundles keep packages external.
  const require = createRequire(import.meta.url);
  const loaded = new Map<string, Buffer>();
  for (const [script, weights] of Object.entries(FONT_FILES) as [Script, Record<Weight, string>][])
    for (const [weight, file] of Object.entries(weights) as [Weight, string][])
      loaded.set(fontName(script, weight), sfntOfWoff(readFileSync(require.resolve(file))));
  fontFiles = loaded;
  return loaded;
}

/** Registers the six faces in a pdfkit document under their `fontName`s. */
export function registerPdfFonts(doc: PDFKit.PDFDocument): void {
  for (const [name, font] of pdfFonts()) doc.registerFont(name, font);
}

const isDevanagari = (cp: number) =>
  (cp >= 0x0900 && cp <= 0x097f) ||
  (cp >= 0x1cd0 && cp <= 0x1cf9) ||
  (cp >= 0xa8e0 && cp <= 0xa8ff) ||
  cp === 0x25cc;
const isJoiner = (cp: number) => cp === 0x200c || cp === 0x200d;
const isLatinExt = (cp: number) =>
  (cp >= 0x0100 &&
    cp <= 0x02ff &&
    ![0x0131, 0x0152, 0x0153, 0x02bb, 0x02bc, 0x02c6, 0x02da, 0x02dc].includes(cp)) ||
  (cp >= 0x1e00 && cp <= 0x1eff) ||
  (cp >= 0x20a0 && cp <= 0x20c0 && cp !== 0x20ac);

/** Text cut into runs by script; spaces and punctuation stay Latin, joiners stay with their run. */
export function scriptRuns(text: string): { script: Script; text: string }[] {
  const runs: { script: Script; text: string }[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const last = runs.at(-1);
    const script: Script = isDevanagari(cp)
      ? "devanagari"
      : isJoiner(cp) && last
        ? last.script
        : isLatinExt(cp)
          ? "latinExt"
          : "latin";
    if (last?.script === script) last.text += ch;
    else runs.push({ script, text: ch });
  }
  return runs;
}
