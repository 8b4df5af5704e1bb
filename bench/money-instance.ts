// One app instance for `npm run bench:money`, as its own process (bench/money.ts starts two): the
// production composition on PostgreSQL (BENCH_INSTANCE_DATABASE_URL), listening on 127.0.0.1 at
// BENCH_INSTANCE_PORT, with its job runner working the provider events queue only (the transfers
// that captures ask for would go to the embedded provider and are not what is measured). Prints
// "ready" once it listens; SIGTERM stops it.
import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import pino from "pino";
import { EVENTS_QUEUE } from "~/features/payments/payment-events.server";
import { loadEnv } from "~/lib/env.server";
import { startJobRunner } from "~/lib/jobs.server";
import { openDatabase } from "~db/client";
import { composeApp } from "../server/composition";

const url = process.env.BENCH_INSTANCE_DATABASE_URL ?? "";
const port = Number(process.env.BENCH_INSTANCE_PORT);
const host = new URL(url).hostname;
if (!["127.0.0.1", "localhost", "[::1]"].includes(host))
  throw new Error("the bench's database must be on this machine (127.0.0.1)");

const env = loadEnv({
  NODE_ENV: "production",
  DATA_DIR: process.env.BENCH_INSTANCE_DATA_DIR ?? "",
  DATABASE_URL: url,
  APP_URL: `http://127.0.0.1:${port}`,
  PORT: String(port),
  PAYMENTS: "local",
  LOG_LEVEL: "error",
});
const database = openDatabase({ driver: "postgres", url, poolSize: 10 });
const logger = pino({ level: "error" });
const composed = await composeApp({
  env,
  logger,
  database,
  getBuild: () => Promise.reject(new Error("this bench serves no pages")),
});
const server = createServer(getRequestListener(composed.app.fetch));
await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
const runner = await startJobRunner({
  db: database.db,
  listen: database.listen,
  logger,
  handlers: composed.jobHandlers.filter((h) => h.queue === EVENTS_QUEUE),
  pollSeconds: 10,
  clock: composed.clock,
});
console.log("ready");
process.once("SIGTERM", async () => {
  await runner.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await composed.realtime.close();
  await database.close();
  process.exit(0);
});
