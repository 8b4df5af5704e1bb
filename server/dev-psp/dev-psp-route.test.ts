import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { verifyRazorpayWebhook } from "~/features/payments/webhook-signature";
import { runDueJobs } from "~/lib/jobs.server";
import { createTestDatabase } from "../../tests/support/test-database";
import {
  createDevPsp,
  DEV_PSP_KEY_ID,
  DEV_PSP_KEY_SECRET,
  DEV_PSP_OLD_WEBHOOK_SECRET,
  DEV_PSP_WEBHOOK_SECRET,
} from "./dev-psp";
import { devPspJobs } from "./webhooks";

// Payment Links, Route (linked accounts, transfers, reversals) and the test controls of the
// embedded provider, driven as the Razorpay client and a payer's browser would.

type Delivery = { body: Buffer; signature: string | null; eventId: string | null };
type Json = Record<string, unknown> & { id: string };
type Event = {
  event: string;
  contains: string[];
  payload: Record<string, { entity: Record<string, unknown> }>;
};

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Server;
let receiverUrl: string;
const received: Delivery[] = [];
let psp: Hono;
/** How far the fake's clock runs ahead of real time. */
let aheadMs = 0;

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

async function json<T = Json>(response: Response | Promise<Response>, status = 200): Promise<T> {
  const res = await response;
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const nowS = () => Math.floor((Date.now() + aheadMs) / 1000);

let references = 0;
function linkBody(extra: Record<string, unknown> = {}) {
  return {
    amount: 12_345_678,
    currency: "INR",
    accept_partial: false,
    description: "Deposit for Sitar evening, 14 Dec",
    reference_id: `intent-${++references}-${Date.now()}`,
    expire_by: nowS() + 3600,
    customer: { name: "Asha Rao", email: "asha@example.com" },
    notify: { sms: false, email: false },
    callback_url: "http://localhost/bookings/b1/return?x=1",
    callback_method: "get",
    notes: { intent: `in_${references}`, booking: "b1" },
    ...extra,
  };
}

async function createLink(extra: Record<string, unknown> = {}) {
  return json<Json & { reference_id: string; short_url: string; status: string }>(
    api("/v1/payment_links", { method: "POST", body: linkBody(extra) }),
  );
}

function pay(linkId: string, outcome: "upi" | "card") {
  return psp.request(`/dev/psp/pay/${linkId}`, {
    method: "POST",
    body: new URLSearchParams({ outcome }),
  });
}

async function paidLink(extra: Record<string, unknown> = {}) {
  const link = await createLink(extra);
  expect((await pay(link.id, "upi")).status).toBe(303);
  const fetched = await json<{ payments: { payment_id: string }[] }>(
    api(`/v1/payment_links/${link.id}`),
  );
  const paymentId = fetched.payments[0]?.payment_id as string;
  return { link, paymentId };
}

let accounts = 0;
async function createAccount(key = `acct-key-${++accounts}-${Date.now()}`) {
  return json(
    api("/v2/accounts", {
      method: "POST",
      headers: { "Idempotency-Key": key },
      body: {
        email: `artist${accounts}@example.com`,
        phone: "9000090000",
        type: "route",
        reference_id: `artist-${accounts}`,
        legal_business_name: "Ravi Shankar Kumar",
        business_type: "individual",
        contact_name: "Ravi Shankar Kumar",
        legal_info: { pan: "ABCPK1234F" },
      },
    }),
  );
}

async function drain() {
  await runDueJobs(database.db, devPspJobs({ db: database.db }));
}

function events(): (Delivery & { json: Event })[] {
  return received.map((d) => ({ ...d, json: JSON.parse(d.body.toString("utf8")) as Event }));
}

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({
        body: Buffer.concat(chunks),
        signature: (req.headers["x-razorpay-signature"] as string | undefined) ?? null,
        eventId: (req.headers["x-razorpay-event-id"] as string | undefined) ?? null,
      });
      res.statusCode = 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/razorpay`;
  psp = new Hono().route(
    "/dev/psp",
    createDevPsp({
      db: database.db,
      webhookUrl: receiverUrl,
      clock: { now: () => new Date(Date.now() + aheadMs) },
    }),
  );
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await database?.dispose();
});
beforeEach(async () => {
  await drain();
  received.length = 0;
});

describe("payment links", () => {
  it("creates a link in Razorpay's shape, with an order behind it and a short_url to its page", async () => {
    const body = linkBody();
    const link = await json(api("/v1/payment_links", { method: "POST", body }));
    expect(link).toMatchObject({
      amount: 12_345_678,
      amount_paid: 0,
      currency: "INR",
      status: "created",
      reference_id: body.reference_id,
      expire_by: body.expire_by,
      description: body.description,
      customer: { name: "Asha Rao", email: "asha@example.com" },
      callback_url: body.callback_url,
      callback_method: "get",
      notes: body.notes,
      payments: null,
      accept_partial: false,
    });
    expect(link.id).toMatch(/^plink_[A-Za-z0-9]{14}$/);
    expect(link.short_url).toBe(`http://localhost/dev/psp/pay/${link.id}`);
    expect(typeof link.created_at).toBe("number");
    const order = await json(api(`/v1/orders/${link.order_id}`));
    expect(order).toMatchObject({ amount: 12_345_678, status: "created" });
  });

  it("refuses a second link with the same reference id, as Razorpay does", async () => {
    const body = linkBody();
    await json(api("/v1/payment_links", { method: "POST", body }));
    const again = await json(
      api("/v1/payment_links", { method: "POST", body: { ...body, amount: 5000 } }),
      400,
    );
    expect(again).toMatchObject({
      error: { code: "BAD_REQUEST_ERROR", description: "Reference Id already exists" },
    });
  });

  it("fetches a link by id and by reference id", async () => {
    const link = await createLink();
    expect((await json(api(`/v1/payment_links/${link.id}`))).id).toBe(link.id);
    const list = await json<{ payment_links: Json[] }>(
      api(`/v1/payment_links?reference_id=${encodeURIComponent(link.reference_id)}`),
    );
    expect(list.payment_links.map((l) => l.id)).toEqual([link.id]);
    const none = await json<{ payment_links: Json[] }>(
      api("/v1/payment_links?reference_id=nobody-made-this"),
    );
    expect(none.payment_links).toEqual([]);
    await json(api("/v1/payment_links/plink_Nope0000000000"), 400);
  });

  it("refuses a bad link: amount, currency, expiry too soon or too far, no auth", async () => {
    for (const extra of [
      { amount: 99 },
      { amount: 100.5 },
      { currency: "USD" },
      { expire_by: nowS() + 60 },
      { expire_by: nowS() + 200 * 24 * 3600 },
    ]) {
      const res = await api("/v1/payment_links", { method: "POST", body: linkBody(extra) });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: "BAD_REQUEST_ERROR" } });
    }
    const anonymous = await psp.request("/dev/psp/v1/payment_links", {
      method: "POST",
      body: JSON.stringify(linkBody()),
    });
    expect(anonymous.status).toBe(401);
  });

  it("cancels a link once; a cancelled link takes no payment", async () => {
    const link = await createLink();
    const cancelled = await json(api(`/v1/payment_links/${link.id}/cancel`, { method: "POST" }));
    expect(cancelled).toMatchObject({ id: link.id, status: "cancelled" });
    await json(api(`/v1/payment_links/${link.id}/cancel`, { method: "POST" }), 400);
    expect((await pay(link.id, "upi")).status).toBe(410);
    const page = await (await psp.request(`/dev/psp/pay/${link.id}`)).text();
    expect(page).toContain("This payment link is cancelled");
    expect(page).not.toContain("Pay with UPI");
    await drain();
    expect(events().map((e) => e.json.event)).toEqual(["payment_link.cancelled"]);
  });

  it("expires by the fake's time: status expired, payment refused, payment_link.expired sent", async () => {
    const link = await createLink({ expire_by: nowS() + 20 * 60 });
    aheadMs += 21 * 60 * 1000;
    try {
      expect((await json(api(`/v1/payment_links/${link.id}`))).status).toBe("expired");
      expect((await pay(link.id, "upi")).status).toBe(410);
      const again = await json<{ payment_links: Json[] }>(
        api(`/v1/payment_links?reference_id=${link.reference_id}`),
      );
      expect(again.payment_links[0]?.status).toBe("expired");
    } finally {
      aheadMs = 0;
    }
    await drain();
    expect(events().map((e) => e.json.event)).toEqual(["payment_link.expired"]);
  });
});

describe("the hosted payment page", () => {
  it("shows merchant, amount in rupees, description, both buttons and a way back, without scripts", async () => {
    const link = await createLink();
    const res = await psp.request(new URL(link.short_url).pathname);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("GigLedger");
    expect(html).toContain("₹1,23,456.78");
    expect(html).toContain("Deposit for Sitar evening, 14 Dec");
    expect(html).toContain("Pay with UPI (succeeds)");
    expect(html).toContain("Pay with card (fails)");
    expect(html).toContain('<a href="/bookings/b1/return?x=1">Close the page</a>');
    expect(html).toContain('<form method="post">');
    expect(html).not.toContain("<script");
    expect((await psp.request("/dev/psp/pay/plink_Nope0000000000")).status).toBe(404);
  });

  it("pays: captured on the link's order, link paid, back to the callback with a correct signature", async () => {
    const link = await createLink();
    const res = await pay(link.id, "upi");
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "", "http://localhost");
    expect(location.pathname).toBe("/bookings/b1/return");
    const q = location.searchParams;
    expect(q.get("x")).toBe("1");
    const paymentId = q.get("razorpay_payment_id") ?? "";
    expect(paymentId).toMatch(/^pay_/);
    expect(q.get("razorpay_payment_link_id")).toBe(link.id);
    expect(q.get("razorpay_payment_link_reference_id")).toBe(link.reference_id);
    expect(q.get("razorpay_payment_link_status")).toBe("paid");
    // Checked independently of the fake: Razorpay's documented formula.
    const expected = createHmac("sha256", DEV_PSP_KEY_SECRET)
      .update(`${link.id}|${link.reference_id}|paid|${paymentId}`)
      .digest("hex");
    expect(q.get("razorpay_signature")).toBe(expected);

    const fetched = await json(api(`/v1/payment_links/${link.id}`));
    expect(fetched).toMatchObject({
      status: "paid",
      amount_paid: 12_345_678,
      payments: [{ payment_id: paymentId, amount: 12_345_678, status: "captured" }],
    });
    const payment = await json(api(`/v1/payments/${paymentId}`));
    expect(payment).toMatchObject({
      entity: "payment",
      status: "captured",
      amount: 12_345_678,
      order_id: fetched.order_id,
      notes: link.notes as Record<string, string>,
    });
    const order = await json(api(`/v1/orders/${fetched.order_id}`));
    expect(order).toMatchObject({ status: "paid", amount_due: 0 });
    // A paid link takes no second payment.
    expect((await pay(link.id, "upi")).status).toBe(409);
    expect((await json(api(`/v1/payment_links/${link.id}`))).payments).toHaveLength(1);
  });

  it("fails on the card button and leaves the link open to pay again", async () => {
    const link = await createLink();
    const failed = await pay(link.id, "card");
    expect(failed.status).toBe(200);
    expect(await failed.text()).toContain("The payment failed");
    const open = await json(api(`/v1/payment_links/${link.id}`));
    expect(open).toMatchObject({
      status: "created",
      amount_paid: 0,
      payments: [{ status: "failed" }],
    });
    expect((await pay(link.id, "upi")).status).toBe(303);
    const paid = await json<{ status: string; payments: { status: string }[] }>(
      api(`/v1/payment_links/${link.id}`),
    );
    expect(paid.status).toBe("paid");
    expect(paid.payments.map((p) => p.status)).toEqual(["failed", "captured"]);
  });

  it("goes back to a loopback callback as it is, never to another host", async () => {
    const local = await createLink({ callback_url: "http://127.0.0.1:5173/return" });
    const res = await pay(local.id, "upi");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(
      /^http:\/\/127\.0\.0\.1:5173\/return\?razorpay_payment_id=pay_/,
    );
    const outside = await createLink({ callback_url: "https://evil.example/return" });
    const page = await (await psp.request(`/dev/psp/pay/${outside.id}`)).text();
    expect(page).not.toContain("evil.example");
    const answer = await pay(outside.id, "upi");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("location")).toBeNull();
  });

  it("queues payment.captured, order.paid, payment_link.paid in that order, signed, one id each", async () => {
    const { link, paymentId } = await paidLink();
    await drain();
    const sent = events();
    expect(sent.map((e) => e.json.event)).toEqual([
      "payment.captured",
      "order.paid",
      "payment_link.paid",
    ]);
    for (const d of sent) {
      expect(verifyRazorpayWebhook(d.body, d.signature, { current: DEV_PSP_WEBHOOK_SECRET })).toBe(
        true,
      );
      expect(d.eventId).toMatch(/^evt_/);
      expect(d.json.payload.payment?.entity).toMatchObject({
        id: paymentId,
        notes: link.notes as Record<string, string>,
      });
    }
    expect(new Set(sent.map((d) => d.eventId)).size).toBe(3);
    const linkPaid = sent[2]?.json as Event;
    expect(linkPaid.contains).toEqual(["payment_link", "order", "payment"]);
    expect(linkPaid.payload.payment_link?.entity).toMatchObject({
      id: link.id,
      status: "paid",
      reference_id: link.reference_id,
      amount_paid: 12_345_678,
    });
    expect(linkPaid.payload.order?.entity).toMatchObject({ status: "paid" });
  });
});

describe("route: linked accounts", () => {
  it("the same Idempotency-Key gives the same account; another key another", async () => {
    const key = `acct-same-${Date.now()}`;
    const first = await createAccount(key);
    expect(first).toMatchObject({
      type: "route",
      status: "activated",
      legal_business_name: "Ravi Shankar Kumar",
      business_type: "individual",
    });
    expect(first.id).toMatch(/^acc_[A-Za-z0-9]{14}$/);
    expect((await createAccount(key)).id).toBe(first.id);
    expect((await createAccount()).id).not.toBe(first.id);
    expect((await json(api(`/v2/accounts/${first.id}`))).id).toBe(first.id);
    await json(api("/v2/accounts/acc_Nope0000000000"), 400);
    expect(
      (await psp.request(`/dev/psp/v2/accounts/${first.id}`, { headers: { Authorization: "x" } }))
        .status,
    ).toBe(401);
    const bad = await api("/v2/accounts", {
      method: "POST",
      body: { email: "a@example.com", type: "standard", legal_business_name: "X" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("route: transfers and reversals", () => {
  it("transfers on hold, answered as a collection; PATCH releases it, idempotently", async () => {
    const { paymentId } = await paidLink();
    const account = await createAccount();
    await drain();
    received.length = 0;
    const made = await json<{ entity: string; count: number; items: Json[] }>(
      api(`/v1/payments/${paymentId}/transfers`, {
        method: "POST",
        body: {
          transfers: [
            {
              account: account.id,
              amount: 10_000_000,
              currency: "INR",
              on_hold: 1,
              notes: { gl_ref: "split:1" },
            },
          ],
        },
      }),
    );
    expect(made).toMatchObject({ entity: "collection", count: 1 });
    const transfer = made.items[0] as Json;
    expect(transfer).toMatchObject({
      entity: "transfer",
      status: "processed",
      source: paymentId,
      recipient: account.id,
      amount: 10_000_000,
      currency: "INR",
      amount_reversed: 0,
      notes: { gl_ref: "split:1" },
      on_hold: true,
      on_hold_until: null,
      recipient_settlement_id: null,
      settlement_status: "on_hold",
    });
    expect(transfer.id).toMatch(/^trf_/);
    expect(typeof transfer.processed_at).toBe("number");
    const listed = await json<{ count: number; items: Json[] }>(
      api(`/v1/payments/${paymentId}/transfers`),
    );
    expect(listed.items.map((t) => t.id)).toEqual([transfer.id]);
    await drain();
    const sent = events();
    expect(sent.map((e) => e.json.event)).toEqual(["transfer.processed"]);
    expect(sent[0]?.json.payload.transfer?.entity).toMatchObject({ id: transfer.id });

    for (const onHold of [0, false]) {
      const released = await json(
        api(`/v1/transfers/${transfer.id}`, { method: "PATCH", body: { on_hold: onHold } }),
      );
      expect(released).toMatchObject({ on_hold: false, settlement_status: "pending" });
    }
    expect(await json(api(`/v1/transfers/${transfer.id}`))).toMatchObject({ on_hold: false });
    const held = await json(
      api(`/v1/transfers/${transfer.id}`, { method: "PATCH", body: { on_hold: true } }),
    );
    expect(held).toMatchObject({ on_hold: true });
    await json(api(`/v1/transfers/${transfer.id}`, { method: "PATCH", body: { on_hold: 2 } }), 400);
  });

  it("never transfers more than the payment, nor from a failed payment or to no account", async () => {
    const { paymentId } = await paidLink();
    const account = await createAccount();
    const transfer = (amount: number, to = account.id) =>
      api(`/v1/payments/${paymentId}/transfers`, {
        method: "POST",
        body: { transfers: [{ account: to, amount, currency: "INR", on_hold: true }] },
      });
    await json(transfer(12_345_679), 400);
    await json(transfer(12_000_000));
    await json(transfer(345_679), 400);
    await json(transfer(1000, "acc_Nope0000000000"), 400);
    await json(transfer(345_678));

    const link = await createLink();
    await pay(link.id, "card");
    const failed = await json<{ payments: { payment_id: string }[] }>(
      api(`/v1/payment_links/${link.id}`),
    );
    await json(
      api(`/v1/payments/${failed.payments[0]?.payment_id}/transfers`, {
        method: "POST",
        body: { transfers: [{ account: account.id, amount: 100, currency: "INR" }] },
      }),
      400,
    );
  });

  it("refuses a transfer once a refund was initiated on the payment", async () => {
    const { paymentId } = await paidLink();
    const account = await createAccount();
    const refund = await json(
      api(`/v1/payments/${paymentId}/refund`, {
        method: "POST",
        body: { amount: 500 },
        headers: { "X-Refund-Idempotency": `refund-${paymentId}` },
      }),
    );
    expect(await json(api(`/v1/refunds/${refund.id}`))).toMatchObject({
      id: refund.id,
      entity: "refund",
      amount: 500,
      payment_id: paymentId,
      status: "processed",
    });
    const refused = await json(
      api(`/v1/payments/${paymentId}/transfers`, {
        method: "POST",
        body: { transfers: [{ account: account.id, amount: 1000, currency: "INR" }] },
      }),
      400,
    );
    expect(refused).toMatchObject({
      error: {
        code: "BAD_REQUEST_ERROR",
        description: "You cannot request a transfer on payment once a refund has been initiated",
      },
    });
  });

  it("reverses up to what is left of a transfer, and lists the reversals", async () => {
    const { paymentId } = await paidLink();
    const account = await createAccount();
    const made = await json<{ items: Json[] }>(
      api(`/v1/payments/${paymentId}/transfers`, {
        method: "POST",
        body: { transfers: [{ account: account.id, amount: 10_000, currency: "INR" }] },
      }),
    );
    const transferId = (made.items[0] as Json).id;
    const reverse = (amount: number) =>
      api(`/v1/transfers/${transferId}/reversals`, {
        method: "POST",
        body: { amount, notes: { gl_ref: `rev-${amount}` } },
      });
    const first = await json(reverse(3000));
    expect(first).toMatchObject({
      entity: "reversal",
      transfer_id: transferId,
      amount: 3000,
      currency: "INR",
      notes: { gl_ref: "rev-3000" },
    });
    expect(first.id).toMatch(/^rvrsl_/);
    expect(await json(api(`/v1/transfers/${transferId}`))).toMatchObject({
      amount_reversed: 3000,
      status: "partially_reversed",
    });
    await json(reverse(7001), 400);
    await json(reverse(7000));
    await json(reverse(1), 400);
    expect(await json(api(`/v1/transfers/${transferId}`))).toMatchObject({
      amount_reversed: 10_000,
      status: "reversed",
    });
    const list = await json<{ entity: string; count: number; items: Json[] }>(
      api(`/v1/transfers/${transferId}/reversals`),
    );
    expect(list).toMatchObject({ entity: "collection", count: 2 });
    expect(list.items.map((r) => r.amount)).toEqual([3000, 7000]);
  });
});

describe("test controls", () => {
  it("state lists every object, and each webhook delivered or not", async () => {
    const { link, paymentId } = await paidLink();
    const account = await createAccount();
    await json(
      api(`/v1/payments/${paymentId}/transfers`, {
        method: "POST",
        body: { transfers: [{ account: account.id, amount: 1000, currency: "INR" }] },
      }),
    );
    const before = await json<Record<string, Json[]>>(psp.request("/dev/psp/_control/state"));
    for (const key of [
      "orders",
      "payments",
      "payment_links",
      "refunds",
      "transfers",
      "reversals",
      "accounts",
      "webhooks",
    ])
      expect(Array.isArray(before[key]), key).toBe(true);
    expect(before.payment_links?.some((l) => l.id === link.id && l.status === "paid")).toBe(true);
    expect(before.payments?.some((p) => p.id === paymentId)).toBe(true);
    expect(before.accounts?.some((a) => a.id === account.id)).toBe(true);
    expect(before.transfers?.some((t) => t.source === paymentId)).toBe(true);
    const pending = before.webhooks?.filter((w) => !w.delivered) ?? [];
    expect(pending.map((w) => w.event)).toEqual([
      "payment.captured",
      "order.paid",
      "payment_link.paid",
      "transfer.processed",
    ]);
    await drain();
    const after = await json<{ webhooks: Json[] }>(psp.request("/dev/psp/_control/state"));
    const ids = new Set(pending.map((w) => w.id));
    expect(after.webhooks.filter((w) => ids.has(w.id)).every((w) => w.delivered)).toBe(true);
    // Changes are POSTs only.
    expect((await psp.request("/dev/psp/_control/webhooks/hold")).status).toBe(404);
  });

  it("redelivers a delivered event n times with the same id and the same signed bytes", async () => {
    await paidLink();
    await drain();
    const first = events().find((e) => e.json.event === "order.paid");
    if (!first?.eventId) throw new Error("no order.paid");
    received.length = 0;
    const res = await psp.request(`/dev/psp/_control/webhooks/${first.eventId}/redeliver?times=2`, {
      method: "POST",
    });
    expect(res.status).toBe(200);
    await drain();
    expect(received).toHaveLength(2);
    for (const again of received) {
      expect(again.eventId).toBe(first.eventId);
      expect(again.signature).toBe(first.signature);
      expect(again.body.equals(first.body)).toBe(true);
    }
    const missing = await psp.request("/dev/psp/_control/webhooks/evt_Nope/redeliver", {
      method: "POST",
    });
    expect(missing.status).toBe(404);
  });

  it("holds deliveries, then releases them in reverse order", async () => {
    const held = await json<{ held: boolean }>(
      psp.request("/dev/psp/_control/webhooks/hold", { method: "POST" }),
    );
    expect(held.held).toBe(true);
    try {
      await paidLink();
      await drain();
      expect(received).toHaveLength(0);
      const state = await json<{ webhooks_held: boolean; webhooks: Json[] }>(
        psp.request("/dev/psp/_control/state"),
      );
      expect(state.webhooks_held).toBe(true);
      expect(state.webhooks.filter((w) => w.held).map((w) => w.event)).toEqual([
        "payment.captured",
        "order.paid",
        "payment_link.paid",
      ]);
    } finally {
      const released = await json<{ released: string[] }>(
        psp.request("/dev/psp/_control/webhooks/release?order=reverse", { method: "POST" }),
      );
      expect(released.released).toHaveLength(3);
    }
    await drain();
    expect(events().map((e) => e.json.event)).toEqual([
      "payment_link.paid",
      "order.paid",
      "payment.captured",
    ]);
    await json(
      psp.request("/dev/psp/_control/webhooks/release?order=shuffle", { method: "POST" }),
      400,
    );
  });

  it("holding takes already queued deliveries off the queue, and releases them as they were", async () => {
    await paidLink();
    await json(psp.request("/dev/psp/_control/webhooks/hold", { method: "POST" }));
    await drain();
    expect(received).toHaveLength(0);
    await json(psp.request("/dev/psp/_control/webhooks/release?order=as-is", { method: "POST" }));
    await drain();
    expect(events().map((e) => e.json.event)).toEqual([
      "payment.captured",
      "order.paid",
      "payment_link.paid",
    ]);
  });

  it("forges events with a wrong, absent or old-secret signature", async () => {
    const body = { entity: "event", event: "payment.captured", payload: {}, created_at: 1 };
    const forge = (signature: string) =>
      json<{ event_id: string; status: number }>(
        psp.request("/dev/psp/_control/webhooks/forge", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ body, signature }),
        }),
      );
    for (const kind of ["wrong", "absent", "old-secret"]) {
      const answer = await forge(kind);
      expect(answer.status).toBe(200);
    }
    expect(received).toHaveLength(3);
    const [wrong, absent, old] = received as [Delivery, Delivery, Delivery];
    expect(wrong.body.toString("utf8")).toBe(JSON.stringify(body));
    expect(wrong.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(
      verifyRazorpayWebhook(wrong.body, wrong.signature, { current: DEV_PSP_WEBHOOK_SECRET }),
    ).toBe(false);
    expect(absent.signature).toBeNull();
    expect(
      verifyRazorpayWebhook(old.body, old.signature, { current: DEV_PSP_WEBHOOK_SECRET }),
    ).toBe(false);
    expect(
      verifyRazorpayWebhook(old.body, old.signature, {
        current: DEV_PSP_WEBHOOK_SECRET,
        previous: DEV_PSP_OLD_WEBHOOK_SECRET,
      }),
    ).toBe(true);
    expect(new Set(received.map((d) => d.eventId)).size).toBe(3);
    await json(
      psp.request("/dev/psp/_control/webhooks/forge", {
        method: "POST",
        body: JSON.stringify({ body, signature: "valid" }),
      }),
      400,
    );
  });
});
