/**
 * Every text file of the browser build is written a second and a third time, compressed once and
 * for all: `name.br` (Brotli, best quality) and `name.gz` (gzip, best level), beside the original.
 * The server sends the variant the browser accepts (`serveStatic({ precompressed: true })` in
 * server/app.ts) instead of gzipping the same bytes again on every request, so a cold page load
 * costs the server no compression work, and Brotli's files are about an eighth smaller than gzip's
 * (decision 031).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Plugin } from "vite";

/** Smaller files gain nothing worth a second request path (the server's compress() skips them too). */
const MIN_BYTES = 1024;
const TEXT_FILE = /\.(?:js|mjs|css|svg|json|txt|html|map|webmanifest)$/;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The two compressed copies of `content`, at the best settings for files compressed once. */
async function compressedCopies(content: Uint8Array) {
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength,
      },
    }),
    gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  return { br, gz };
}

export function precompress(): Plugin {
  return {
    name: "gigledger-precompress",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) this.error("the client build has no output directory to precompress");
      // The files as written, whatever a later plugin did to them.
      const names = Object.keys(bundle).filter((name) => TEXT_FILE.test(name));
      await Promise.all(
        names.map(async (name) => {
          const target = path.join(dir, name);
          const content = await readFile(target);
          if (content.byteLength < MIN_BYTES) return;
          const { br, gz } = await compressedCopies(content);
          await Promise.all([writeFile(`${target}.br`, br), writeFile(`${target}.gz`, gz)]);
        }),
      );
    },
  };
}
