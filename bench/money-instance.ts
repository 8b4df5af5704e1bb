// One app instance for `npm run bench:money`, as its own process (bench/money.ts starts two): the
// production composition on PostgreSQL (BENCH_INSTANCE_DATABASE_URL), listening on 127.0.0.1 at
// BENCH_INSTANCE_PORT, with its job runner working the provider events queue only (the transfers
// that captures ask for would go to the embedded provider and are not what is measured). Prints
// "ready" once it listens; SIGTERM stops it.
import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import pino from "pino";
import { EVENTS_QUEUE } from "~/features/payments/payment-events.server";
import { startJobRunner } from "~/lib/jobs.server";
import { openDatabase } from "~db/client";
import { composeApp } from "../server/composition";
import { instanceSettings } from "./money-instance-env";

const { url, port, env } = instanceSettings();
const database = openDatabase({ driver: "postgres", url });
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
