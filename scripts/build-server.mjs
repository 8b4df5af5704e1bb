// Bundles the Node entry (server/main.ts and what it imports) into build/server/main.js, and each
// isolated task (app/**/*.worker.ts, see app/lib/isolated.server.ts) into build/server/workers/.
import { readdirSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  tsconfig: "tsconfig.json",
  logLevel: "warning",
};

await build({
  ...common,
  entryPoints: ["server/main.ts"],
  outfile: "build/server/main.js",
  // build/server/index.js (the React Router build) is loaded at run time, not bundled.
  external: ["*/build/server/index.js"],
});

const workerTasks = readdirSync("app", { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".worker.ts"))
  .map((file) => path.join("app", file));
// Flat, by file name (isolated.server.ts looks a task up by its name): with tasks in two folders
// esbuild would otherwise keep their folders under workers/.
await build({
  ...common,
  entryPoints: workerTasks,
  outdir: "build/server/workers",
  entryNames: "[name]",
});
