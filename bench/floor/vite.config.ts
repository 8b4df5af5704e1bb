import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { precompress } from "../../vite.precompress.ts";

// Built exactly like the app (../../vite.config.ts): the same framework plugins and build options,
// and its files precompressed the same way, since it is served the same way (./serve.ts).
export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), precompress()],
  build: { assetsInlineLimit: 0 },
});
