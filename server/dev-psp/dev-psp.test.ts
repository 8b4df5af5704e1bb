import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyRazorpayWebhook } from "~/features/payments/webhook-signature";
import { runDueJobs } from "~/lib/jobs.server";
import { pspWebhookDeliveries } from "~db/schema";
import { startTestApp } from "../../tests/support/app-harness";
import { createTestDatabase } from "../../tests/support/test-database";
import {
  createDevPsp,
  DEV_PSP_KEY_ID,
  DEV_PSP_KEY_SECRET,
  DEV_PSP_WEBHOOK_SECRET,
} from "./dev-psp";
import { devPspJobs, isLoopbackUrl } from "./webhooks";

type Delivery = { body: Buffer; signature: string | null; eventId: string | null };

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Server;
let receiverUrl: string;
const received: Delivery[] = [];
/** Answers the next this many deliveries with 500, to make the fake deliver again. */
let failNext = 0;
let psp: Hono;

const auth = `Basic ${Buffer.from(`${DEV_PSP_KEY_ID}:${DEV_PSP_KEY_SECRET}`).toString("base64")}`;

function api(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return psp.request(`/dev/psp${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: auth, "Content-Type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

let receipts = 0;
async function createOrder(extra: Record<string, unknown> = {}) {
  const res = await api("/v1/orders", {
    method: "POST",
    body: {
      amount: 12_345_678,
      currency: "INR",
      receipt: `rcpt-${++receipts}-${Date.now()}`,
      ...extra,
    },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; status: string; receipt: string; amount_due: number };
}

function checkout(orderId: string, outcome: "pay" | "fail") {
  return psp.request(`/dev/psp/checkout/${orderId}`, {
    method: "POST",
    body: new URLSearchParams({ outcome }),
  });
}

async function paidOrder() {
  const order = await createOrder();
  expect((await checkout(order.id, "pay")).status).toBe(200);
  const list = (await (await api(`/v1/orders/${order.id}/payments`)).json()) as {
    items: { id: string; status: string }[];
  };
  return { order, payment: list.items[0] as { id: string; status: string } };
}

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks),
        signature: req.headers["x-razorpay-signature"] as string | null,
        eventId: req.headers["x-razorpay-event-id"] as string | null,
      });
      res.statusCode = failNext > 0 ? 500 : 200;
      if (failNext > 0) failNext--;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/razorpay`;
  psp = new Hono().route("/dev/psp", createDevPsp({ db: database.db, webhookUrl: receiverUrl }));
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.dispose();
});

describe("orders", () => {
  it("creates an order in Razorpay's shape, and the same receipt returns the same order", async () => {
    const body = {
      amount: 50_000,
      currency: "INR",
      receipt: `same-${Date.now()}`,
      notes: { booking: "b1" },
    };
    const first = await api("/v1/orders", { method: "POST", body });
    expect(first.status).toBe(200);
    const order = (await first.json()) as Record<string, unknown>;
    expect(order).toMatchObject({
      entity: "order",
      amount: 50_000,
      amount_paid: 0,
      amount_due: 50_000,
      currency: "INR",
      receipt: body.receipt,
      status: "created",
      attempts: 0,
      notes: { booking: "b1" },
    });
    expect(order.id).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(typeof order.created_at).toBe("number");
    const again = (await (await api("/v1/orders", { method: "POST", body })).json()) as {
      id: string;
    };
    expect(again.id).toBe(order.id);
    const fetched = (await (await api(`/v1/orders/${order.id}`)).json()) as { id: string };
    expect(fetched.id).toBe(order.id);
  });

  it("refuses an order without a whole amount in paise", async () => {
    const res = await api("/v1/orders", {
      method: "POST",
      body: { amount: 12.5, currency: "INR" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "BAD_REQUEST_ERROR" } });
  });

  it("answers 401 to a wrong key secret, and to none", async () => {
    const wrong = `Basic ${Buffer.from(`${DEV_PSP_KEY_ID}:nope`).toString("base64")}`;
    const res = await api("/v1/orders/order_x", { headers: { Authorization: wrong } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { description: "Authentication failed" } });
    expect((await psp.request("/dev/psp/v1/orders/order_x")).status).toBe(401);
  });
});

describe("hosted checkout", () => {
  it("shows the amount in rupees with Indian grouping and both buttons, without scripts", async () => {
    const order = await createOrder();
    const res = await psp.request(`/dev/psp/checkout/${order.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Pay ₹1,23,456.78");
    expect(html).toContain("Fail this payment");
    expect(html).toContain('<form method="post">');
    expect(html).not.toContain("<script");
  });

  it("captures a payment, marks the order paid, and takes no second payment", async () => {
    const { order, payment } = await paidOrder();
    expect(payment.status).toBe("captured");
    const fetched = (await (await api(`/v1/payments/${payment.id}`)).json()) as Record<
      string,
      unknown
    >;
    expect(fetched).toMatchObject({
      entity: "payment",
      order_id: order.id,
      amount: 12_345_678,
      status: "captured",
      captured: true,
    });
    const paid = (await (await api(`/v1/orders/${order.id}`)).json()) as Record<string, unknown>;
    expect(paid).toMatchObject({
      status: "paid",
      amount_paid: 12_345_678,
      amount_due: 0,
      attempts: 1,
    });
    expect((await checkout(order.id, "pay")).status).toBe(409);
    const list = (await (await api(`/v1/orders/${order.id}/payments`)).json()) as { count: number };
    expect(list.count).toBe(1);
  });

  it("fails a payment on request and leaves the order open", async () => {
    const order = await createOrder();
    expect((await checkout(order.id, "fail")).status).toBe(200);
    const attempted = (await (await api(`/v1/orders/${order.id}`)).json()) as Record<
      string,
      unknown
    >;
    expect(attempted).toMatchObject({ status: "attempted", attempts: 1, amount_paid: 0 });
  });

  it("redirects to a same-origin callback path, never to another address", async () => {
    const here = await createOrder({ notes: { callback_url: "/bookings/b1/paid?x=1" } });
    const res = await checkout(here.id, "pay");
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location).toMatch(/^\/bookings\/b1\/paid\?x=1&razorpay_payment_id=pay_/);
    expect(location).toContain(`razorpay_order_id=${here.id}`);
    for (const outside of ["https://evil.example/x", "//evil.example/x", "/\\evil.example"]) {
      const order = await createOrder({ notes: { callback_url: outside } });
      const answer = await checkout(order.id, "pay");
      expect(answer.status, outside).toBe(200);
      expect(answer.headers.get("location")).toBeNull();
    }
  });
});

describe("refunds", () => {
  it("the same idempotency key and body give the same refund; another body is refused", async () => {
    const { payment } = await paidOrder();
    const headers = { "X-Refund-Idempotency": `refund-${payment.id}` };
    const first = await api(`/v1/payments/${payment.id}/refund`, {
      method: "POST",
      body: { amount: 1000 },
      headers,
    });
    expect(first.status).toBe(200);
    const refund = (await first.json()) as Record<string, unknown>;
    expect(refund).toMatchObject({
      entity: "refund",
      amount: 1000,
      payment_id: payment.id,
      status: "processed",
    });
    expect(refund.id).toMatch(/^rfnd_/);
    const again = await api(`/v1/payments/${payment.id}/refund`, {
      method: "POST",
      body: { amount: 1000 },
      headers,
    });
    expect(((await again.json()) as { id: string }).id).toBe(refund.id);
    const other = await api(`/v1/payments/${payment.id}/refund`, {
      method: "POST",
      body: { amount: 2000 },
      headers,
    });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({
      error: {
        code: "BAD_REQUEST_ERROR",
        description: "Different request with the same idempotency key has already been processed",
      },
    });
    const fetched = (await (await api(`/v1/payments/${payment.id}`)).json()) as Record<
      string,
      unknown
    >;
    expect(fetched).toMatchObject({
      amount_refunded: 1000,
      refund_status: "partial",
      status: "captured",
    });
  });

  it("never refunds more than was captured less what was refunded", async () => {
    const { payment } = await paidOrder();
    const refund = (amount: number, key: string) =>
      api(`/v1/payments/${payment.id}/refund`, {
        method: "POST",
        body: { amount },
        headers: { "X-Refund-Idempotency": key },
      });
    expect((await refund(12_345_679, `over-${payment.id}`)).status).toBe(400);
    expect((await refund(12_000_000, `most-${payment.id}`)).status).toBe(200);
    expect((await refund(345_679, `rest1-${payment.id}`)).status).toBe(400);
    expect((await refund(345_678, `rest2-${payment.id}`)).status).toBe(200);
    const fetched = (await (await api(`/v1/payments/${payment.id}`)).json()) as Record<
      string,
      unknown
    >;
    expect(fetched).toMatchObject({
      status: "refunded",
      refund_status: "full",
      amount_refunded: 12_345_678,
    });
  });
});

describe("one idempotency key sent at once for two payments", () => {
  it("refunds one and refuses the other in words, never a 5xx", async () => {
    const [a, b] = [await paidOrder(), await paidOrder()];
    const key = `race-${a.payment.id}`;
    const answers = await Promise.all(
      [a, b].map(({ payment }) =>
        api(`/v1/payments/${payment.id}/refund`, {
          method: "POST",
          body: { amount: 500 },
          headers: { "X-Refund-Idempotency": key },
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
  });
});

describe("webhooks", () => {
  it("table: only loopback targets are allowed", () => {
    const cases: [string, boolean][] = [
      ["http://127.0.0.1:3000/hook", true],
      ["http://127.8.9.10/hook", true],
      ["http://localhost:5173/hook", true],
      ["http://[::1]:3000/hook", true],
      ["http://[::ffff:127.0.0.1]/hook", true],
      ["https://localhost/hook", true],
      ["http://10.0.0.1/hook", false],
      ["http://192.168.1.10/hook", false],
      ["http://169.254.169.254/latest", false],
      ["http://0.0.0.0/hook", false],
      ["http://[::]/hook", false],
      ["http://example.com/hook", false],
      ["http://localhost.example.com/hook", false],
      ["http://8.8.8.8/hook", false],
      ["ftp://127.0.0.1/hook", false],
      ["http://user:pw@127.0.0.1/hook", false],
      ["not a url", false],
    ];
    for (const [url, allowed] of cases) expect(isLoopbackUrl(url), url).toBe(allowed);
  });

  it("refuses a target off this machine", () => {
    expect(() =>
      createDevPsp({ db: database.db, webhookUrl: "https://hooks.example.com/rzp" }),
    ).toThrow(/loopback/);
  });

  it("delivers signed events at least once, again after a failure, with one event id each", async () => {
    await runDueJobs(database.db, devPspJobs({ db: database.db }));
    received.length = 0;
    const { order, payment } = await paidOrder();
    failNext = 1;
    const errors: unknown[] = [];
    await runDueJobs(database.db, devPspJobs({ db: database.db }), (error) => errors.push(error));
    expect(errors).toHaveLength(1);
    // The failed one waits its pause; make it due now.
    await database.db.execute(sql`UPDATE jobs SET run_at = now() WHERE queue = 'dev-psp-webhook'`);
    await runDueJobs(database.db, devPspJobs({ db: database.db }));
    const events = received.map((d) => ({ ...d, json: JSON.parse(d.body.toString("utf8")) }));
    for (const d of events) {
      expect(verifyRazorpayWebhook(d.body, d.signature, { current: DEV_PSP_WEBHOOK_SECRET })).toBe(
        true,
      );
      expect(d.json).toMatchObject({ entity: "event", account_id: expect.stringMatching(/^acc_/) });
      expect(d.json.payload.payment.entity.id).toBe(payment.id);
    }
    expect(events.map((e) => e.json.event).sort()).toEqual(
      expect.arrayContaining(["order.paid", "payment.captured"]),
    );
    const ids = new Set(events.map((e) => e.eventId));
    expect(ids.size).toBe(2);
    expect(events).toHaveLength(3);
    const paidEvent = events.find((e) => e.json.event === "order.paid");
    expect(paidEvent?.json.contains).toEqual(["payment", "order"]);
    expect(paidEvent?.json.payload.order.entity).toMatchObject({ id: order.id, status: "paid" });
    const undelivered = await database.db
      .select({ id: pspWebhookDeliveries.id })
      .from(pspWebhookDeliveries)
      .where(
        sql`${pspWebhookDeliveries.deliveredAt} IS NULL AND ${pspWebhookDeliveries.id} IN (${sql.join(
          [...ids].map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    expect(undelivered).toEqual([]);
  });

  it("sends payment.failed and refund.processed", async () => {
    await runDueJobs(database.db, devPspJobs({ db: database.db }));
    received.length = 0;
    const failedOrder = await createOrder();
    await checkout(failedOrder.id, "fail");
    const { payment } = await paidOrder();
    await api(`/v1/payments/${payment.id}/refund`, { method: "POST", body: { amount: 500 } });
    await runDueJobs(database.db, devPspJobs({ db: database.db }));
    const names = received.map((d) => JSON.parse(d.body.toString("utf8")).event).sort();
    expect(names).toEqual(["order.paid", "payment.captured", "payment.failed", "refund.processed"]);
    const refund = received
      .map((d) => JSON.parse(d.body.toString("utf8")))
      .find((e) => e.event === "refund.processed");
    expect(refund.contains).toEqual(["refund", "payment"]);
    expect(refund.payload.refund.entity).toMatchObject({ amount: 500, payment_id: payment.id });
  });

  it("refuses to deliver to a target off this machine, even one written into the table", async () => {
    await database.db.insert(pspWebhookDeliveries).values({
      id: "evt_outside000001",
      event: "payment.captured",
      targetUrl: "http://192.0.2.1/hook",
      body: "{}",
      signature: "0".repeat(64),
    });
    const [handler] = devPspJobs({ db: database.db });
    if (!handler || !("outside" in handler)) throw new Error("no handler");
    await expect(
      handler.outside({
        id: "1",
        queue: handler.queue,
        key: "k",
        attempts: 1,
        payload: { deliveryId: "evt_outside000001" },
      }),
    ).rejects.toThrow(/off this machine/);
    const [row] = await database.db
      .select()
      .from(pspWebhookDeliveries)
      .where(eq(pspWebhookDeliveries.id, "evt_outside000001"));
    expect(row?.attempts).toBe(0);
    await database.db
      .delete(pspWebhookDeliveries)
      .where(eq(pspWebhookDeliveries.id, "evt_outside000001"));
  });
});

describe("mounted in the app", () => {
  it("answers on a local app, and 404 on a public one", async () => {
    const local = await startTestApp(database);
    try {
      expect((await local.request("/dev/psp/v1/orders/order_x")).status).toBe(401);
    } finally {
      await local.close();
    }
    const pub = await startTestApp(database, {
      APP_URL: "https://gigledger.example",
      MAIL_TRANSPORT: "log",
    });
    try {
      expect(
        (await pub.request("/dev/psp/v1/orders/order_x", { headers: { Authorization: auth } }))
          .status,
      ).toBe(404);
      expect((await pub.request("/dev/psp/checkout/order_x")).status).toBe(404);
    } finally {
      await pub.close();
    }
  });
});
