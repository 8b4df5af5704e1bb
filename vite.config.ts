import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { chunking, leanIcons, leanPreload } from "./vite.chunks.ts";
import { compileHints } from "./vite.compile-hints.ts";
import { precompress } from "./vite.precompress.ts";

export default defineConfig({
  plugins: [
    tailwindcss(),
    reactRouter(),
    chunking(),
    leanIcons(),
    leanPreload(),
    compileHints(),
    precompress(),
  ],
  resolve: { tsconfigPaths: true },
  ssr: { external: ["@electric-sql/pglite", "pg", "sharp", "pino"] },
  build: { assetsInlineLimit: 0 },
});
