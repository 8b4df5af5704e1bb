/**
 * The embedded payment provider (decision 053; design money-and-terms §3.6): a Razorpay-compatible
 * fake the app serves at /dev/psp while it is local, never when public (server/app.ts). Behind
 * Basic auth, in Razorpay's shapes (amounts in paise, times in Unix seconds): orders, payments and
 * refunds (here), Payment Links and their hosted page (`payment-links.ts`), Route linked accounts,
 * transfers and reversals (`route.ts`). Paying goes through one shared function (`checkout.ts`);
 * signed webhooks are delivered through the job runner (`webhooks.ts`); the test controls are
 * under `/_control` (`control.ts`). Its state is in the `psp_*` tables.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { formatPaise } from "~/lib/money-text";
import type { Queryable } from "~db/client";
import { pspOrders, pspPayments, pspRefunds } from "~db/schema";
import { paymentNotes as paymentNotesOf, paymentView, payOrder } from "./checkout";
import {
  callbackTarget,
  escapeHtml,
  fakeBase,
  type Psp,
  PspError,
  page,
  readJson,
  withQuery,
} from "./common";
import { controlRoutes, DEV_PSP_OLD_WEBHOOK_SECRET } from "./control";
import { type Order, orderEntity, paymentEntity, refundEntity } from "./entities";
import { paymentLinkRoutes } from "./payment-links";
import { routeRoutes } from "./route";
import {
  isLoopbackUrl,
  newPspId,
  queueWebhook,
  type WebhookHold,
  type WebhookTarget,
} from "./webhooks";

export { sameOriginPath } from "./common";
export { DEV_PSP_OLD_WEBHOOK_SECRET } from "./control";

/** Local-only credentials: the fake never runs when the app is public, so these guard nothing real. */
export const DEV_PSP_KEY_ID = "rzp_test_DevPspLocal01";
export const DEV_PSP_KEY_SECRET = "dev-psp-local-key-secret";
export const DEV_PSP_WEBHOOK_SECRET = "dev-psp-local-webhook-secret";

export type DevPspOptions = {
  db: Queryable;
  keyId?: string;
  keySecret?: string;
  webhookSecret?: string;
  /** What `POST /_control/webhooks/forge` signs an `old-secret` event with. */
  oldWebhookSecret?: string;
  /** Where webhooks are POSTed: loopback only. Without it the fake sends none. */
  webhookUrl?: string;
  /** The fake's time (the app's clock, decision 054): links expire and entities are dated by it. */
  clock?: { now(): Date };
};

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
  const clock = options.clock ?? { now: () => new Date() };
  const now = () => clock.now();
  const hold: WebhookHold = { held: false, waiting: [] };
  const target: WebhookTarget | undefined = options.webhookUrl
    ? {
        url: options.webhookUrl,
        secret: options.webhookSecret ?? DEV_PSP_WEBHOOK_SECRET,
        hold,
        now,
      }
    : undefined;
  const psp: Psp = { db, keySecret, target, hold, now };

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
  const basicAuth = async (c: Context, next: () => Promise<void>) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
    const given = match ? Buffer.from(match[1] ?? "", "base64").toString("utf8") : "";
    if (!sameText(given, `${keyId}:${keySecret}`)) throw new PspError(401, "Authentication failed");
    await next();
  };
  app.use("/v1/*", basicAuth);
  app.use("/v2/*", basicAuth);

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
        createdAt: now(),
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
    const notes = await paymentNotesOf(db, order.id);
    return c.json({
      entity: "collection",
      count: payments.length,
      items: payments.map((payment) => paymentEntity(payment, notes)),
    });
  });

  app.get("/v1/payments/:id", async (c) => {
    const [payment] = await db
      .select()
      .from(pspPayments)
      .where(eq(pspPayments.id, c.req.param("id")));
    if (!payment) throw new PspError(400, "The id provided does not exist", "id");
    return c.json(await paymentView(db, payment));
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
          createdAt: now(),
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
          payment: { entity: await paymentView(tx, updated) },
        },
      });
      return { refund, payment: updated };
    });
    return c.json(refundEntity(result.refund, result.payment.currency));
  });

  app.get("/v1/refunds/:id", async (c) => {
    const [row] = await db
      .select({ refund: pspRefunds, currency: pspPayments.currency })
      .from(pspRefunds)
      .innerJoin(pspPayments, eq(pspPayments.id, pspRefunds.paymentId))
      .where(eq(pspRefunds.id, c.req.param("id")));
    if (!row) throw new PspError(400, "The id provided does not exist", "id");
    return c.json(refundEntity(row.refund, row.currency));
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
    const form = await c.req.parseBody();
    const outcome = form.outcome === "fail" ? "fail" : "pay";
    const result = await payOrder(psp, c.req.param("orderId"), outcome, fakeBase(c));
    if (result.kind === "missing")
      return c.html(page("Order not found", "<p>There is no such order.</p>"), 404);
    if (result.kind === "paid-already")
      return c.html(
        page("Already paid", "<p>This order is already paid: it takes no second payment.</p>"),
        409,
      );
    if (result.kind === "closed")
      return c.html(
        page(
          `Link ${result.link.status}`,
          `<p>This order's payment link is ${escapeHtml(result.link.status)}: it takes no payment.</p>`,
        ),
        410,
      );
    if (result.kind === "failed")
      return c.html(
        page(
          "Payment failed",
          `<p>The payment failed (${escapeHtml(result.payment.id)}).</p><p><a href="${escapeHtml(
            c.req.path,
          )}">Try again</a></p>`,
        ),
      );
    const callback = callbackTarget(result.order.notes.callback_url, c.req.url);
    if (callback)
      return c.redirect(
        withQuery(callback, c.req.url, {
          razorpay_payment_id: result.payment.id,
          razorpay_order_id: result.order.id,
          razorpay_signature: createHmac("sha256", keySecret)
            .update(`${result.order.id}|${result.payment.id}`)
            .digest("hex"),
        }),
        303,
      );
    return c.html(
      page("Payment received", `<p>Paid: payment ${escapeHtml(result.payment.id)}.</p>`),
    );
  });

  paymentLinkRoutes(app, psp);
  routeRoutes(app, psp);
  controlRoutes(app, psp, options.oldWebhookSecret ?? DEV_PSP_OLD_WEBHOOK_SECRET);

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

async function requireOrder(db: Queryable, id: string) {
  const [order] = await db.select().from(pspOrders).where(eq(pspOrders.id, id));
  if (!order) throw new PspError(400, "The id provided does not exist", "id");
  return order;
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
