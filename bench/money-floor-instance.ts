// The control beside `npm run bench:money`'s instances (bench/money-instance.ts): the least a
// webhook receiver can do on this machine, served the same way (Hono on @hono/node-server, its
// own process, 127.0.0.1:BENCH_INSTANCE_PORT). BENCH_FLOOR says how much:
// - "answer": checks the signature and answers 200, touching no database;
// - "store": also stores the delivery once per event id in the inbox (`recordProviderEvent`, one
//   autocommit statement, no job), answering a redelivery it stored itself from memory
//   (`RecentEvents`) as the real instance does, and applies nothing.
// What the real instance does beyond "store" is the money path itself. Prints "ready" once it
// listens; SIGTERM stops it.
import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { RecentEvents } from "~/features/payments/payment-events.server";
import { recordProviderEvent } from "~/features/payments/provider-events.server";
import { verifyRazorpayWebhook } from "~/features/payments/webhook-signature";
import { openDatabase } from "~db/client";
import { instanceSettings } from "./money-instance-env";

const { url, port, env } = instanceSettings();
const floor = process.env.BENCH_FLOOR === "store" ? "store" : "answer";
if (env.payments.mode === "off") throw new Error("the control needs payments on");
const secrets = { current: env.payments.webhookSecret };
const database = openDatabase({ driver: "postgres", url });

const stored = new RecentEvents();

const app = new Hono();
app.post("/webhooks/razorpay", async (c) => {
  const raw = new Uint8Array(await c.req.arrayBuffer());
  if (!verifyRazorpayWebhook(raw, c.req.header("x-razorpay-signature") ?? null, secrets))
    return c.text("The signature does not match.", 400);
  const eventId = c.req.header("x-razorpay-event-id") ?? "";
  if (floor === "store" && !stored.has(eventId)) {
    await recordProviderEvent(database.db, {
      provider: "razorpay",
      eventId,
      eventType: "payment_link.paid",
      rawBody: Buffer.from(raw).toString("utf8"),
      signatureOk: true,
      receivedAt: new Date(),
    });
    stored.add(eventId);
  }
  return c.text("ok", 200, { "content-length": "2" });
});

const server = createServer(getRequestListener(app.fetch));
await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
console.log("ready");
process.once("SIGTERM", async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await database.close();
  process.exit(0);
});
