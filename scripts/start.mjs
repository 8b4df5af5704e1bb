// `npm start`: builds when there is no build yet, then runs the production server.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

process.env.NODE_ENV ??= "production";
if (!existsSync("build/server/main.js") || !existsSync("build/server/index.js")) {
  console.log("No build found: building first (about 10 s)…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit", shell: false });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
await import("../build/server/main.js");
