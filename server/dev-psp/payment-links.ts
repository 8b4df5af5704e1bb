/**
 * Razorpay Payment Links in the embedded provider: the API (`/v1/payment_links…`) and the hosted
 * page a link's `short_url` opens (`/pay/:plinkId`), a plain form without scripts.
 */
import { createHmac } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { z } from "zod";
import { formatPaise } from "~/lib/money-text";
import { pspOrders, pspPaymentLinks } from "~db/schema";
import { loadLink, payOrder } from "./checkout";
import {
  callbackTarget,
  escapeHtml,
  fakeBase,
  type Psp,
  PspError,
  page,
  readBody,
  withQuery,
} from "./common";
import { type PaymentLink, paymentLinkEntity } from "./entities";
import { newPspId, queueWebhook } from "./webhooks";

/** Razorpay's limit on `expire_by`: at most six months from now. */
const MAX_LIFETIME_S = 183 * 24 * 3600;
/** …and at least 15 minutes. */
const MIN_LIFETIME_S = 15 * 60;

const NotesSchema = z
  .record(z.string(), z.string().max(256))
  .refine((notes) => Object.keys(notes).length <= 15, "at most 15 notes");

const CreateLinkSchema = z.object({
  amount: z.number().int().min(100),
  currency: z.literal("INR").default("INR"),
  accept_partial: z.literal(false).optional(),
  description: z.string().max(2048).default(""),
  reference_id: z.string().min(1).max(40),
  expire_by: z.number().int().positive().optional(),
  customer: z
    .object({
      name: z.string().max(255).optional(),
      email: z.string().max(255).optional(),
      contact: z.string().max(20).optional(),
    })
    .default({}),
  notify: z.object({ sms: z.boolean().optional(), email: z.boolean().optional() }).optional(),
  reminder_enable: z.boolean().optional(),
  callback_url: z.string().url().max(2048).optional(),
  callback_method: z.literal("get").optional(),
  notes: NotesSchema.default({}),
});

/** The `razorpay_signature` of a link's return: HMAC-SHA256 with the key secret, hex. */
export function paymentLinkCallbackSignature(
  keySecret: string,
  link: { id: string; referenceId: string; status: string },
  paymentId: string,
) {
  return createHmac("sha256", keySecret)
    .update(`${link.id}|${link.referenceId}|${link.status}|${paymentId}`)
    .digest("hex");
}

export function paymentLinkRoutes(app: Hono, psp: Psp) {
  const { db } = psp;

  app.post("/v1/payment_links", async (c) => {
    const input = await readBody(c, CreateLinkSchema);
    const now = psp.now();
    const nowS = Math.floor(now.getTime() / 1000);
    if (input.expire_by !== undefined) {
      if (input.expire_by < nowS + MIN_LIFETIME_S)
        throw new PspError(
          400,
          "expire_by should be at least 15 minutes after current time",
          "expire_by",
        );
      if (input.expire_by > nowS + MAX_LIFETIME_S)
        throw new PspError(400, "expire_by cannot be more than 6 months from now", "expire_by");
    }
    if (input.callback_url !== undefined && input.callback_method !== "get")
      throw new PspError(
        400,
        "callback_method is required when callback_url is given",
        "callback_method",
      );
    const customer: Record<string, string> = {};
    for (const key of ["name", "email", "contact"] as const) {
      const value = input.customer[key];
      if (value !== undefined) customer[key] = value;
    }
    const base = fakeBase(c);
    const view = await db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: pspPaymentLinks.id })
        .from(pspPaymentLinks)
        .where(eq(pspPaymentLinks.referenceId, input.reference_id));
      if (taken) throw new PspError(400, "Reference Id already exists", "reference_id");
      const [order] = await tx
        .insert(pspOrders)
        .values({
          id: newPspId("order"),
          amount: input.amount,
          currency: input.currency,
          receipt: null,
          status: "created",
          notes: input.notes,
          createdAt: now,
        })
        .returning();
      if (!order) throw new Error("order not written");
      const inserted = await tx
        .insert(pspPaymentLinks)
        .values({
          id: newPspId("plink"),
          orderId: order.id,
          referenceId: input.reference_id,
          amount: input.amount,
          status: "created",
          description: input.description,
          expireBy: input.expire_by === undefined ? null : new Date(input.expire_by * 1000),
          callbackUrl: input.callback_url ?? null,
          customer,
          notes: input.notes,
          createdAt: now,
        })
        .onConflictDoNothing({ target: pspPaymentLinks.referenceId })
        .returning();
      // Two creates at once with one reference id: the unique index decides, the loser is told.
      const link = inserted[0];
      if (!link) throw new PspError(400, "Reference Id already exists", "reference_id");
      return { link, order };
    });
    return c.json(paymentLinkEntity(view.link, view.order, [], base));
  });

  app.get("/v1/payment_links", async (c) => {
    const referenceId = c.req.query("reference_id");
    const base = fakeBase(c);
    const links = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: pspPaymentLinks.id })
        .from(pspPaymentLinks)
        .where(referenceId === undefined ? undefined : eq(pspPaymentLinks.referenceId, referenceId))
        .orderBy(desc(pspPaymentLinks.createdAt), desc(pspPaymentLinks.id))
        .limit(100);
      const views = [];
      for (const row of rows) {
        const view = await loadLink(psp, tx, { id: row.id }, base);
        if (view) views.push(paymentLinkEntity(view.link, view.order, view.payments, base));
      }
      return views;
    });
    return c.json({ payment_links: links });
  });

  app.get("/v1/payment_links/:id", async (c) => {
    const base = fakeBase(c);
    const view = await db.transaction((tx) => loadLink(psp, tx, { id: c.req.param("id") }, base));
    if (!view) throw new PspError(400, "The id provided does not exist", "id");
    return c.json(paymentLinkEntity(view.link, view.order, view.payments, base));
  });

  app.post("/v1/payment_links/:id/cancel", async (c) => {
    const base = fakeBase(c);
    const view = await db.transaction(async (tx) => {
      const found = await loadLink(psp, tx, { id: c.req.param("id") }, base, true);
      if (!found) throw new PspError(400, "The id provided does not exist", "id");
      if (found.link.status !== "created")
        throw new PspError(
          400,
          `Payment Link cannot be cancelled as it is already ${found.link.status}`,
        );
      const [cancelled] = await tx
        .update(pspPaymentLinks)
        .set({ status: "cancelled" })
        .where(eq(pspPaymentLinks.id, found.link.id))
        .returning();
      if (!cancelled) throw new Error("link not cancelled");
      const view = { ...found, link: cancelled };
      await queueWebhook(tx, psp.target, {
        event: "payment_link.cancelled",
        payload: {
          payment_link: {
            entity: paymentLinkEntity(view.link, view.order, view.payments, base),
          },
        },
      });
      return view;
    });
    return c.json(paymentLinkEntity(view.link, view.order, view.payments, base));
  });

  // ─── The hosted page a link's short_url opens ─────────────────────────────────────────────
  app.get("/pay/:plinkId", async (c) => {
    const base = fakeBase(c);
    const view = await db.transaction((tx) =>
      loadLink(psp, tx, { id: c.req.param("plinkId") }, base),
    );
    if (!view) return c.html(page("Link not found", "<p>There is no such payment link.</p>"), 404);
    return c.html(page("Pay GigLedger", linkPageBody(c, view.link)));
  });

  app.post("/pay/:plinkId", async (c) => {
    const base = fakeBase(c);
    const form = await c.req.parseBody();
    const outcome = form.outcome === "card" || form.outcome === "fail" ? "fail" : "pay";
    const [link] = await db
      .select()
      .from(pspPaymentLinks)
      .where(eq(pspPaymentLinks.id, c.req.param("plinkId")));
    if (!link) return c.html(page("Link not found", "<p>There is no such payment link.</p>"), 404);
    const result = await payOrder(psp, link.orderId, outcome, base);
    if (result.kind === "missing")
      return c.html(page("Link not found", "<p>There is no such payment link.</p>"), 404);
    if (result.kind === "paid-already")
      return c.html(
        page("Already paid", "<p>This link is already paid: it takes no second payment.</p>"),
        409,
      );
    if (result.kind === "closed")
      return c.html(
        page(
          `Link ${result.link.status}`,
          `<p>This payment link is ${escapeHtml(result.link.status)}: it takes no payment.</p>`,
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
    const paid = result.link ?? link;
    const back = callbackTarget(paid.callbackUrl, c.req.url);
    if (back)
      return c.redirect(
        withQuery(back, c.req.url, {
          razorpay_payment_id: result.payment.id,
          razorpay_payment_link_id: paid.id,
          razorpay_payment_link_reference_id: paid.referenceId,
          razorpay_payment_link_status: paid.status,
          razorpay_signature: paymentLinkCallbackSignature(psp.keySecret, paid, result.payment.id),
        }),
        303,
      );
    return c.html(
      page("Payment received", `<p>Paid: payment ${escapeHtml(result.payment.id)}.</p>`),
    );
  });
}

function linkPageBody(c: Context, link: PaymentLink) {
  const amount = escapeHtml(formatPaise(link.amount));
  const details = `<p>Merchant: <strong>GigLedger</strong></p>
<p>${escapeHtml(link.description)}</p>
<p>Amount: <strong>${amount}</strong></p>`;
  const back = callbackTarget(link.callbackUrl, c.req.url);
  const close = back ? `<p><a href="${escapeHtml(back)}">Close the page</a></p>` : "";
  if (link.status !== "created")
    return `${details}<p>This payment link is ${escapeHtml(link.status)}.</p>${close}`;
  return `${details}
<form method="post">
  <button type="submit" name="outcome" value="upi">Pay with UPI (succeeds)</button>
  <button type="submit" name="outcome" value="card">Pay with card (fails)</button>
</form>
${close}`;
}
