import path from "node:path";
import type { ServerBuild } from "react-router";
import { accountMails } from "~/features/accounts/account-mails";
import { createAuth } from "~/lib/auth.server";
import { type Clock, createLocalClock, systemClock } from "~/lib/clock.server";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import { createMailer } from "~/lib/mail.server";
import { createRealtime, type Realtime } from "~/lib/realtime.server";
import { createStorage } from "~/lib/storage.server";
import type { DatabaseHandle } from "~db/client";
import { createApp } from "./app";
import { jobHandlers } from "./job-handlers";

export type CompositionOptions = {
  env: Env;
  logger: Logger;
  database: DatabaseHandle;
  /** Production passes the built module; development and tests compile it with Vite. */
  getBuild: () => Promise<ServerBuild>;
  /** Folder of the built browser assets; absent when Vite serves them. */
  clientDir?: string;
  /** How the realtime hub is opened (the test harness tolerates a closed database). */
  openRealtime?: (database: DatabaseHandle) => Promise<Realtime>;
};

/**
 * The composition root: the one place that builds the mailer, auth, storage, realtime hub, the
 * app's clock, the job handlers and the HTTP app from the environment, logger and database. The
 * server (server/boot.ts) and the test harness (tests/support/app-harness.ts) both start the app
 * through it, so a test runs the app as it is wired in production.
 */
export async function composeApp({
  openRealtime = createRealtime,
  ...options
}: CompositionOptions) {
  const { env, logger, database } = options;
  const mailer = createMailer(env, logger);
  const auth = createAuth({ db: database.db, env, mailer, mails: accountMails, logger });
  const storage = createStorage(env.storage);
  const realtime = await openRealtime(database);
  // A local app's time can be moved at /dev/clock and keeps its offset across restarts; a public
  // app's is always real time (decision 054).
  const clock: Clock = env.isPublic
    ? systemClock
    : createLocalClock(path.join(env.dataDir, "clock.json"));
  const jobs = jobHandlers({ db: database.db, env, logger, mailer, clock });
  const app = createApp({ ...options, auth, mailer, storage, realtime, clock, jobHandlers: jobs });
  return { app, mailer, auth, storage, realtime, clock, jobHandlers: jobs };
}
