import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { ServerBuild } from "react-router";
import { autoCompletePastBookings } from "~/features/bookings/bookings.server";
import { claimDueCalendars, readClaimedCalendars } from "~/features/calendars/imports.server";
import { startCredentialWorker } from "~/features/credentials/issuance.server";
import { todayIn } from "~/lib/dates";
import { type Env, isEnvError, loadEnv } from "~/lib/env.server";
import { createLogger, type Logger } from "~/lib/logger.server";
import { startPeriodicJob } from "~/lib/periodic-job.server";
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
    await seedDemoData(database.db, {
      today: todayIn(env.timeZone),
      media: { env, storage: createStorage(env.storage), logger },
    });
    logger.info("seeded demo data into the empty embedded database");
  }

  const { app, realtime } = await composeApp({
    env,
    logger,
    database,
    getBuild: options.getBuild,
    clientDir: options.clientDir,
  });
  // Every 10 minutes one instance writes down what reads already show: past confirmed bookings
  // completed, past pending ones cancelled (see docs/decisions/011-periodic-jobs.md).
  const autoComplete = startPeriodicJob({
    db: database.db,
    logger,
    name: "auto-complete of past bookings",
    everyMs: 10 * 60_000,
    work: (tx) => autoCompletePastBookings(tx, todayIn(env.timeZone)),
  });

  // Every minute one instance claims the imported calendars not read for 15 minutes and reads
  // them (see docs/decisions/016-calendar-feeds-and-imports.md).
  const calendarSync = startPeriodicJob({
    db: database.db,
    logger,
    name: "imported calendar sync",
    everyMs: 60_000,
    work: (tx) => claimDueCalendars(tx),
    afterwards: (claimed) => readClaimedCalendars({ db: database.db, env, logger }, claimed),
  });
  // Signs and revokes credentials when a session's level changes: woken by each queueing commit,
  // one instance at a time (docs/decisions/018-signed-performance-cv.md).
  const credentialWorker = await startCredentialWorker({ database, env, logger });

  const listener = getRequestListener(app.fetch);
  const server = createServer((req, res) => {
    if (options.before) options.before(req, res, () => listener(req, res));
    else listener(req, res);
  });
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
      clearInterval(autoComplete);
      clearInterval(calendarSync);
      // Idle keep-alive connections close at once; requests in flight get 10 s to finish (long-lived
      // streams would otherwise hold the close forever).
      await closeServer(10_000);
      await credentialWorker.stop();
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
