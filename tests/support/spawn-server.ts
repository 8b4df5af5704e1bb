import { type ChildProcess, spawn } from "node:child_process";
import { freePort } from "./free-port";

export type SpawnedServer = {
  process: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
};

/** Starts the production build (`build/server/main.js`) with the given environment. */
export async function spawnServer(env: Record<string, string>): Promise<SpawnedServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ["build/server/main.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  return { process: child, url: `http://127.0.0.1:${port}`, output: () => out, exited };
}

/** Resolves once GET /readyz answers 200; rejects if the process exits first. */
export async function waitUntilReady(server: SpawnedServer, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`server exited before it was ready:\n${server.output()}`);
    try {
      const res = await fetch(`${server.url}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready after ${timeoutMs} ms:\n${server.output()}`);
}
