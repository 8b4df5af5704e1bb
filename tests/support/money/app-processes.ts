import { type ChildProcess, spawn } from "node:child_process";

export type AppProcess = {
  process: ChildProcess;
  url: string;
  output: () => string;
  /** The signal that ended it (null if it exited by itself) and its exit code. */
  exited: Promise<{ signal: NodeJS.Signals | null; code: number | null }>;
  /** Asks the running app at `pathname` (relative to its URL). */
  request: (pathname: string, init?: RequestInit) => Promise<Response>;
};

/**
 * Starts tests/support/money/app-process.ts (the app and its job runner, without the pages'
 * build) on a PostgreSQL database, a data folder and a loopback port, with the fault points
 * given, and waits until it answers /readyz. Restarting with the same data folder and port keeps
 * the app's clock and the embedded provider's webhook target.
 */
export async function startAppProcess(options: {
  databaseUrl: string;
  dataDir: string;
  port: number;
  faults?: string[];
}): Promise<AppProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/money/app-process.ts"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      HOST: "127.0.0.1",
      PORT: String(options.port),
      APP_URL: url,
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      BETTER_AUTH_SECRET: "test-secret-".padEnd(40, "x"),
      PAYMENTS: "local",
      LOG_LEVEL: "warn",
      GIGLEDGER_FAULTS: (options.faults ?? []).join(","),
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
  const exited = new Promise<{ signal: NodeJS.Signals | null; code: number | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const started: AppProcess = {
    process: child,
    url,
    output: () => out,
    exited,
    request: (pathname, init) => fetch(new URL(pathname, url), init),
  };
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (ended) throw new Error(`the app process ended before it was ready:\n${out}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error(`the app process was not ready after 60 s:\n${out}`);
}

/** Stops an app process that is still running (SIGTERM: it finishes its work and exits). */
export async function stopAppProcess(app: AppProcess | undefined) {
  if (!app || app.process.exitCode !== null || app.process.signalCode !== null) return;
  app.process.kill("SIGTERM");
  await app.exited;
}
