// Bundles the Node entry (server/main.ts and what it imports) into build/server/main.js.
import { build } from "esbuild";

await build({
  entryPoints: ["server/main.ts"],
  outfile: "build/server/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: "tsconfig.json",
  logLevel: "warning",
  // build/server/index.js (the React Router build) is loaded at run time, not bundled.
  external: ["*/build/server/index.js"],
});
