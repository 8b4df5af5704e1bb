// Production entry: serves the React Router build from ./build.
import path from "node:path";
import type { ServerBuild } from "react-router";
import { projectRoot } from "~db/client";
import { boot, stopOnSignals } from "./boot";

const root = projectRoot();
const buildPath = path.join(root, "build", "server", "index.js");
const build = (await import(buildPath)) as ServerBuild;

const running = await boot({
  getBuild: async () => build,
  clientDir: path.relative(process.cwd(), path.join(root, "build", "client")) || ".",
});
stopOnSignals(running);
