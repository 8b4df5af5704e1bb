/**
 * The embedded payment provider (decision 053; design money-and-terms §3.6): a Razorpay-compatible
 * fake the app serves at /dev/psp while it is local, never when public (server/app.ts). Orders,
 * payments and refunds in Razorpay's shapes (amounts in paise) behind Basic auth, a hosted checkout
 * that works without JavaScript, and signed webhooks delivered through the job runner. Its state is
 * in the `psp_*` tables; nothing in the app calls it yet.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { formatPaise } from "~/lib/money-text";
import type { Queryable } from "~db/client";
import { pspOrders, pspPayments, pspRefunds } from "~db/schema";
import { isLoopbackUrl, newPspId, queueWebhook, type WebhookTarget } from "./webhooks";

/** Local-only credentials: the fake never runs when the app is public, so these guard nothing real. */
export const DEV_PSP_KEY_ID = "rzp_test_DevPspLocal01";
export const DEV_PSP_KEY_SECRET = "dev-psp-local-key-secret";
export const DEV_PSP_WEBHOOK_SECRET = "dev-psp-local-webhook-secret";

export type DevPspOptions = {
  db: Queryable;
  keyId?: string;
  keySecret?: string;
  webhookSecret?: string;
  /** Where webhooks are POSTed: loopback only. Without it the fake sends none. */
  webhookUrl?: string;
};

type Order = typeof pspOrders.$inferSelect;
type Payment = typeof pspPayments.$inferSelect;
type Refund = typeof pspRefunds.$inferSelect;

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

function orderEntity(order: Order) {
  return {
    id: order.id,
    entity: "order",
    amount: order.amount,
    amount_paid: order.amountPaid,
    amount_due: order.amount - order.amountPaid,
    currency: order.currency,
    receipt: order.receipt,
    offer_id: null,
    status: order.status,
    attempts: order.attempts,
    notes: order.notes,
    created_at: unix(order.createdAt),
  };
}

function paymentEntity(payment: Payment) {
  const refundStatus =
    payment.amountRefunded === 0
      ? null
      : payment.amountRefunded < payment.amount
        ? "partial"
        : "full";
  return {
    id: payment.id,
    entity: "payment",
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    order_id: payment.orderId,
    invoice_id: null,
    international: false,
    method: "upi",
    amount_refunded: payment.amountRefunded,
    refund_status: refundStatus,
    captured: payment.status !== "failed",
    description: null,
    vpa: payment.status === "failed" ? "failure@razorpay" : "success@razorpay",
    notes: {},
    fee: 0,
    tax: 0,
    error_code: payment.errorCode,
    error_description: payment.errorDescription,
    error_source: payment.errorCode ? "customer" : null,
    error_step: payment.errorCode ? "payment_authentication" : null,
    error_reason: payment.errorCode ? "payment_failed" : null,
    created_at: unix(payment.createdAt),
  };
}

function refundEntity(refund: Refund, currency: string) {
  return {
    id: refund.id,
    entity: "refund",
    amount: refund.amount,
    currency,
    payment_id: refund.paymentId,
    notes: {},
    receipt: null,
    acquirer_data: { arn: null },
    batch_id: null,
    status: refund.status,
    speed_processed: "normal",
    speed_requested: "normal",
    created_at: unix(refund.createdAt),
  };
}

/** Razorpay's error body. */
class PspError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409,
    readonly description: string,
    readonly field: string | null = null,
  ) {
    super(description);
  }
}

function sameText(a: string, b: string) {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right);
}

const CreateOrderSchema = z.object({
  amount: z.number().int().min(100),
  currency: z.literal("INR"),
  receipt: z.string().min(1).max(40).optional(),
  notes: z.record(z.string(), z.string().max(256)).optional(),
});

const RefundSchema = z.object({
  amount: z.number().int().positive().optional(),
});

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{10,}$/;

export function createDevPsp(options: DevPspOptions) {
  const { db } = options;
  const keyId = options.keyId ?? DEV_PSP_KEY_ID;
  const keySecret = options.keySecret ?? DEV_PSP_KEY_SECRET;
  if (options.webhookUrl !== undefined && !isLoopbackUrl(options.webhookUrl))
    throw new Error(
      `The embedded payment provider sends webhooks only to this machine (loopback), not to ${options.webhookUrl}`,
    );
  const target: WebhookTarget | undefined = options.webhookUrl
    ? { url: options.webhookUrl, secret: options.webhookSecret ?? DEV_PSP_WEBHOOK_SECRET }
    : undefined;

  const app = new Hono();

  app.onError((error, c) => {
    if (error instanceof PspError)
      return c.json(
        {
          error: {
            // Razorpay answers every refusal, a failed login too, with this code.
            code: "BAD_REQUEST_ERROR",
            description: error.description,
            source: "business",
            step: "payment_initiation",
            reason: "input_validation_failed",
            metadata: {},
            field: error.field,
          },
        },
        error.status,
      );
    throw error;
  });

  // ─── The API: Basic auth with the key id and secret, as Razorpay's ───────────────────────
  app.use("/v1/*", async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
    const given = match ? Buffer.from(match[1] ?? "", "base64").toString("utf8") : "";
    if (!sameText(given, `${keyId}:${keySecret}`)) throw new PspError(401, "Authentication failed");
    await next();
  });

  app.post("/v1/orders", async (c) => {
    const input = CreateOrderSchema.safeParse(await readJson(c));
    if (!input.success) {
      const issue = input.error.issues[0];
      throw new PspError(400, issue?.message ?? "Invalid request", String(issue?.path[0] ?? ""));
    }
    const { amount, currency, receipt, notes } = input.data;
    const inserted = await db
      .insert(pspOrders)
      .values({
        id: newPspId("order"),
        amount,
        currency,
        receipt: receipt ?? null,
        status: "created",
        notes: notes ?? {},
      })
      .onConflictDoNothing({ target: pspOrders.receipt })
      .returning();
    // Razorpay's unique receipt: a retried create answers with the order it already made.
    const order =
      inserted[0] ??
      (receipt
        ? (await db.select().from(pspOrders).where(eq(pspOrders.receipt, receipt)))[0]
        : null);
    if (!order) throw new PspError(400, "The order could not be created");
    return c.json(orderEntity(order));
  });

  app.get("/v1/orders/:id", async (c) =>
    c.json(orderEntity(await requireOrder(db, c.req.param("id")))),
  );

  app.get("/v1/orders/:id/payments", async (c) => {
    const order = await requireOrder(db, c.req.param("id"));
    const payments = await db
      .select()
      .from(pspPayments)
      .where(eq(pspPayments.orderId, order.id))
      .orderBy(pspPayments.createdAt, pspPayments.id);
    return c.json({
      entity: "collection",
      count: payments.length,
      items: payments.map(paymentEntity),
    });
  });

  app.get("/v1/payments/:id", async (c) => {
    const [payment] = await db
      .select()
      .from(pspPayments)
      .where(eq(pspPayments.id, c.req.param("id")));
    if (!payment) throw new PspError(400, "The id provided does not exist", "id");
    return c.json(paymentEntity(payment));
  });

  app.post("/v1/payments/:id/refund", async (c) => {
    const paymentId = c.req.param("id");
    const body = RefundSchema.safeParse((await readJson(c)) ?? {});
    if (!body.success)
      throw new PspError(400, "The amount must be a whole number of paise", "amount");
    const key = c.req.header("x-refund-idempotency") ?? null;
    if (key !== null && !IDEMPOTENCY_KEY.test(key))
      throw new PspError(400, "The idempotency key is invalid", "X-Refund-Idempotency");
    // What "the same request" means: the same payment and the same amount asked for.
    const digest = createHash("sha256")
      .update(JSON.stringify({ paymentId, amount: body.data.amount ?? null }))
      .digest("hex");
    const result = await db.transaction(async (tx) => {
      const [payment] = await tx
        .select()
        .from(pspPayments)
        .where(eq(pspPayments.id, paymentId))
        .for("update");
      if (!payment) throw new PspError(400, "The id provided does not exist", "id");
      if (key !== null) {
        // Two refunds sent at once with one key (on any payment) meet here one after the other.
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(hashtextextended(${`psp-refund:${key}`}, 0))`,
        );
        const [earlier] = await tx
          .select()
          .from(pspRefunds)
          .where(eq(pspRefunds.idempotencyKey, key));
        if (earlier) {
          if (earlier.requestDigest !== digest)
            throw new PspError(
              400,
              "Different request with the same idempotency key has already been processed",
            );
          return { refund: earlier, payment };
        }
      }
      if (payment.status === "failed")
        throw new PspError(400, "The payment has not been captured", "payment_id");
      const left = payment.amount - payment.amountRefunded;
      const amount = body.data.amount ?? left;
      if (amount <= 0 || amount > left)
        throw new PspError(
          400,
          "The total refund amount is greater than the refund payment amount",
          "amount",
        );
      const [refund] = await tx
        .insert(pspRefunds)
        .values({
          id: newPspId("rfnd"),
          paymentId,
          amount,
          status: "processed",
          idempotencyKey: key,
          requestDigest: digest,
        })
        .returning();
      const [updated] = await tx
        .update(pspPayments)
        .set({
          amountRefunded: sql`${pspPayments.amountRefunded} + ${amount}`,
          status: amount === left ? "refunded" : payment.status,
        })
        .where(eq(pspPayments.id, paymentId))
        .returning();
      if (!refund || !updated) throw new Error("refund not written");
      await queueWebhook(tx, target, {
        event: "refund.processed",
        payload: {
          refund: { entity: refundEntity(refund, updated.currency) },
          payment: { entity: paymentEntity(updated) },
        },
      });
      return { refund, payment: updated };
    });
    return c.json(refundEntity(result.refund, result.payment.currency));
  });

  // ─── Hosted checkout: a plain form, no scripts ───────────────────────────────────────────
  app.get("/checkout/:orderId", async (c) => {
    const [order] = await db
      .select()
      .from(pspOrders)
      .where(eq(pspOrders.id, c.req.param("orderId")));
    if (!order) return c.html(page("Order not found", "<p>There is no such order.</p>"), 404);
    return c.html(page("Pay GigLedger", checkoutBody(order)));
  });

  app.post("/checkout/:orderId", async (c) => {
    const orderId = c.req.param("orderId");
    const form = await c.req.parseBody();
    const outcome = form.outcome === "fail" ? "fail" : "pay";
    const result = await db.transaction(async (tx) => {
      const [order] = await tx
        .select()
        .from(pspOrders)
        .where(eq(pspOrders.id, orderId))
        .for("update");
      if (!order) return { kind: "missing" as const };
      // One successful payment per order: a paid order takes no second one.
      if (order.status === "paid") return { kind: "paid-already" as const, order };
      const paymentId = newPspId("pay");
      const failed = outcome === "fail";
      const [payment] = await tx
        .insert(pspPayments)
        .values({
          id: paymentId,
          orderId,
          amount: order.amount,
          currency: order.currency,
          status: failed ? "failed" : "captured",
          errorCode: failed ? "BAD_REQUEST_ERROR" : null,
          errorDescription: failed ? "Payment failed" : null,
        })
        .returning();
      const [updated] = await tx
        .update(pspOrders)
        .set({
          attempts: sql`${pspOrders.attempts} + 1`,
          status: failed ? "attempted" : "paid",
          amountPaid: failed ? order.amountPaid : order.amount,
        })
        .where(eq(pspOrders.id, orderId))
        .returning();
      if (!payment || !updated) throw new Error("payment not written");
      if (failed) {
        await queueWebhook(tx, target, {
          event: "payment.failed",
          payload: { payment: { entity: paymentEntity(payment) } },
        });
      } else {
        await queueWebhook(tx, target, {
          event: "payment.captured",
          payload: { payment: { entity: paymentEntity(payment) } },
        });
        await queueWebhook(tx, target, {
          event: "order.paid",
          payload: {
            payment: { entity: paymentEntity(payment) },
            order: { entity: orderEntity(updated) },
          },
        });
      }
      return {
        kind: failed ? ("failed" as const) : ("captured" as const),
        order: updated,
        payment,
      };
    });
    if (result.kind === "missing")
      return c.html(page("Order not found", "<p>There is no such order.</p>"), 404);
    if (result.kind === "paid-already")
      return c.html(
        page("Already paid", "<p>This order is already paid: it takes no second payment.</p>"),
        409,
      );
    if (result.kind === "failed")
      return c.html(
        page(
          "Payment failed",
          `<p>The payment failed (${escapeHtml(result.payment.id)}).</p><p><a href="${escapeHtml(
            checkoutPath(c, result.order.id),
          )}">Try again</a></p>`,
        ),
      );
    const callback = sameOriginPath(result.order.notes.callback_url, c.req.url);
    if (callback) {
      const back = new URL(callback, c.req.url);
      back.searchParams.set("razorpay_payment_id", result.payment.id);
      back.searchParams.set("razorpay_order_id", result.order.id);
      back.searchParams.set(
        "razorpay_signature",
        createHmac("sha256", keySecret)
          .update(`${result.order.id}|${result.payment.id}`)
          .digest("hex"),
      );
      return c.redirect(`${back.pathname}${back.search}`, 303);
    }
    return c.html(
      page("Payment received", `<p>Paid: payment ${escapeHtml(result.payment.id)}.</p>`),
    );
  });

  app.all("*", (c) =>
    c.json(
      {
        error: {
          code: "BAD_REQUEST_ERROR",
          description: "The requested URL was not found on the server.",
        },
      },
      404,
    ),
  );

  return app;
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new PspError(400, "The request body is not valid JSON");
  }
}

async function requireOrder(db: Queryable, id: string) {
  const [order] = await db.select().from(pspOrders).where(eq(pspOrders.id, id));
  if (!order) throw new PspError(400, "The id provided does not exist", "id");
  return order;
}

/** A path on the app's own origin, or null: the checkout never sends anyone elsewhere. */
export function sameOriginPath(given: string | undefined, requestUrl: string): string | null {
  if (typeof given !== "string" || !given.startsWith("/") || /^\/[/\\]/.test(given)) return null;
  if (/[\s\\]/.test(given)) return null;
  const base = new URL(requestUrl);
  const url = new URL(given, base);
  return url.origin === base.origin ? `${url.pathname}${url.search}` : null;
}

function checkoutPath(c: Context, orderId: string) {
  return c.req.path.replace(/[^/]+$/, encodeURIComponent(orderId));
}

function checkoutBody(order: Order) {
  const amount = escapeHtml(formatPaise(order.amount));
  const details = `<p>Order ${escapeHtml(order.id)}${
    order.receipt ? `, receipt ${escapeHtml(order.receipt)}` : ""
  }</p><p>Amount: <strong>${amount}</strong></p>`;
  if (order.status === "paid") return `${details}<p>This order is paid.</p>`;
  return `${details}
<form method="post">
  <button type="submit" name="outcome" value="pay">Pay ${amount}</button>
  <button type="submit" name="outcome" value="fail">Fail this payment</button>
</form>`;
}

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en-IN">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · test payments</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>Test payments on this computer: no money moves.</p>
${body}
</body>
</html>`;
}

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );
}
