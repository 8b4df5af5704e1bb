// Development entry: Vite in middleware mode, the app reloaded on every request.
import type { ServerBuild } from "react-router";
import { createServer } from "vite";
import { boot, stopOnSignals } from "./boot";

process.env.NODE_ENV ??= "development";
const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const running = await boot({
  getBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  before: vite.middlewares,
});
stopOnSignals(running);
running.server.on("close", () => void vite.close());
