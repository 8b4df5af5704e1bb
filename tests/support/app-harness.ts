import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { getRequestListener } from "@hono/node-server";
import pino from "pino";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import { generateSecretKeyMultibase } from "~/lib/ed25519-key.server";
import { loadEnv } from "~/lib/env.server";
import { createRealtime, type Realtime } from "~/lib/realtime.server";
import type { DatabaseHandle } from "~db/client";
import { composeApp } from "../../server/composition";

// One Vite server per test worker, shared by the apps its test files start: starting one and
// compiling the routes costs seconds, and test files run one after another in a worker without
// isolation (vitest.config.ts), so the next file finds the routes compiled. It is never closed:
// it lives as long as the worker.
// Like the auth secret: every app a worker starts signs credentials with one key.
const signingKey = generateSecretKeyMultibase();

let sharedVite: Promise<ViteDevServer> | null = null;

function workerVite() {
  sharedVite ??= createServer({
    configFile: path.resolve("vite.config.ts"),
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    appType: "custom",
    logLevel: "error",
  });
  return sharedVite;
}

export type LogLine = { level: number; msg: string; [key: string]: unknown };

/**
 * The real app (server + React Router routes) on the given database, without a build or a port:
 * Vite compiles the routes on demand. `request()` calls it like a browser would.
 */
export async function startTestApp(
  database: DatabaseHandle,
  envVars: Record<string, string> = {},
  options: { listen?: boolean } = {},
) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gl-app-"));
  // Listening on a loopback port: the app's own calls to itself (the embedded payment provider's
  // API and its webhooks) go over real HTTP, as in production.
  const port = options.listen ? await freeLoopbackPort() : null;
  if (port !== null) {
    envVars = { APP_URL: `http://127.0.0.1:${port}`, PORT: String(port), ...envVars };
  }
  // One secret for every app a test starts: like instances of one deployment, they accept each
  // other's session cookies.
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: "test-secret-".padEnd(40, "x"),
    CREDENTIAL_SIGNING_KEY: signingKey,
    ...envVars,
  });
  const logs: LogLine[] = [];
  const logger = pino(
    { level: "info", base: undefined },
    new Writable({
      write(chunk, _enc, done) {
        logs.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const vite = await workerVite();
  const { app, mailer, auth, storage, realtime, clock, jobHandlers } = await composeApp({
    env,
    logger,
    database,
    getBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    // A test may hand in a database that is already closed (to test failures): no LISTEN then.
    openRealtime: (db) => createRealtime(db).catch(() => createRealtimeWithoutDatabase()),
  });
  const server =
    port === null
      ? null
      : await new Promise<Server>((resolve) => {
          const listening = createHttpServer(getRequestListener(app.fetch));
          listening.listen(port, "127.0.0.1", () => resolve(listening));
        });
  return {
    env,
    logs,
    mailer,
    auth,
    storage,
    /** The app's clock: a local clock kept in the app's data folder, or real time when public. */
    clock,
    jobHandlers,
    request: async (pathname: string, init?: RequestInit): Promise<Response> =>
      app.fetch(new Request(new URL(pathname, env.appUrl), init)),
    realtime,
    async close() {
      if (server) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await realtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on now (the system picks it). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function createRealtimeWithoutDatabase(): Realtime {
  return { publish: async () => {}, subscribe: () => () => {}, close: async () => {} };
}
