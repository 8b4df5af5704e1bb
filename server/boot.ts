import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { todayIn } from "~/lib/dates";
import { type Env, isEnvError, loadEnv } from "~/lib/env.server";
import { startJobRunner } from "~/lib/jobs.server";
import { createLogger, type Logger } from "~/lib/logger.server";
import { createStorage } from "~/lib/storage.server";
import { databaseOptionsFor, openDatabase } from "~db/client";
import { isDatabaseEmpty, seedDemoData } from "~seed/seed";
import { composeApp } from "./composition";
import { gracefulClose } from "./graceful-close";

export type BootOptions = {
  getBuild: () => Promise<ServerBuild>;
  clientDir?: string;
  /** Connect-style middleware that runs first (Vite in development). */
  before?: (
    req: import("node:http").IncomingMessage,
    res: import("node:http").ServerResponse,
    next: () => void,
  ) => void;
  envSource?: Record<string, string | undefined>;
};

export type RunningServer = {
  server: Server;
  env: Env;
  logger: Logger;
  url: string;
  stop(): Promise<void>;
};

/** Reads the environment, migrates (and on an empty embedded database seeds), then listens. */
export async function boot(options: BootOptions): Promise<RunningServer> {
  let env: Env;
  try {
    env = loadEnv(options.envSource);
  } catch (error) {
    if (isEnvError(error)) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(env.logLevel);
  const database = openDatabase(databaseOptionsFor(env));
  await database.migrate();
  if (database.driver === "pglite" && env.seedDemoData && (await isDatabaseEmpty(database.db))) {
    const started = performance.now();
    await seedDemoData(database.db, {
      today: todayIn(env.timeZone),
      media: { env, storage: createStorage(env.storage), logger },
    });
    // A fresh start seeds before it listens: how long it took is printed, not asserted by a test.
    logger.info(
      { ms: Math.round(performance.now() - started) },
      "seeded demo data into the empty embedded database",
    );
  }

  const { app, realtime, clock, jobHandlers } = await composeApp({
    env,
    logger,
    database,
    getBuild: options.getBuild,
    clientDir: options.clientDir,
  });
  // Background work, one runner for every feature (docs/decisions/043-background-jobs.md); the
  // list is server/job-handlers.ts. Jobs are due by the app's clock (decision 054).
  const jobs = await startJobRunner({
    db: database.db,
    listen: database.listen,
    logger,
    handlers: jobHandlers,
    clock,
  });

  const listener = getRequestListener(app.fetch);
  const server = createServer((req, res) => {
    if (options.before) options.before(req, res, () => listener(req, res));
    else listener(req, res);
  });
  // An idle keep-alive connection stays open longer than the clients and proxies that reuse
  // them keep theirs (60 s is a load balancer's usual idle timeout): with Node's 5 s default, a
  // request sent on a connection the server was closing at that moment was reset (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const closeServer = gracefulClose(server);
  await new Promise<void>((resolve) => server.listen(env.port, env.host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${env.host.includes(":") ? `[${env.host}]` : env.host}:${port}`;
  logger.info(
    { url, appUrl: env.appUrl.origin, database: database.driver },
    "GigLedger is listening",
  );

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      logger.info("shutting down: finishing open requests");
      // Idle keep-alive connections close at once; requests in flight get 10 s to finish (long-lived
      // streams would otherwise hold the close forever).
      await closeServer(10_000);
      await jobs.stop();
      await realtime.close();
      await database.close();
      logger.info("stopped");
    })();
    return stopping;
  };
  return { server, env, logger, url, stop };
}

export function stopOnSignals(running: RunningServer) {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      running.stop().then(
        () => process.exit(0),
        (error) => {
          running.logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
}
