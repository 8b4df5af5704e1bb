/**
 * The embedded provider's test controls (`/_control/…`, design money-and-terms §3.6, §8.3): the
 * fake's whole state as JSON, and its webhooks redelivered, held and released in a chosen order,
 * or forged with a bad signature. Local only like the rest of the fake, so without auth; every
 * change is a POST.
 */
import { asc, eq } from "drizzle-orm";
import type { Hono } from "hono";
import { z } from "zod";
import { signRazorpayWebhook } from "~/features/payments/webhook-signature";
import {
  pspAccounts,
  pspOrders,
  pspPaymentLinks,
  pspPayments,
  pspRefunds,
  pspReversals,
  pspTransfers,
  pspWebhookDeliveries,
} from "~db/schema";
import { loadLink, paymentView } from "./checkout";
import { fakeBase, type Psp, PspError, readBody } from "./common";
import {
  accountEntity,
  orderEntity,
  paymentLinkEntity,
  refundEntity,
  reversalEntity,
  transferEntity,
  unix,
} from "./entities";
import {
  holdDeliveries,
  isLoopbackUrl,
  newPspId,
  releaseDeliveries,
  sendDelivery,
} from "./webhooks";

/** The secret a forged `old-secret` event is signed with: one the app no longer trusts. */
export const DEV_PSP_OLD_WEBHOOK_SECRET = "dev-psp-local-webhook-secret-old";

const ForgeSchema = z.object({
  /** The event's body: an object is sent as JSON, a string as it is. */
  body: z.union([z.string(), z.record(z.string(), z.unknown())]),
  signature: z.enum(["wrong", "absent", "old-secret"]),
  /** `x-razorpay-event-id`; a new one unless given. */
  event_id: z.string().min(1).max(64).optional(),
});

export function controlRoutes(app: Hono, psp: Psp, oldWebhookSecret: string) {
  const { db } = psp;

  app.get("/_control/state", async (c) => {
    const base = fakeBase(c);
    const state = await db.transaction(async (tx) => {
      const orders = await tx.select().from(pspOrders).orderBy(asc(pspOrders.createdAt));
      const payments = await tx.select().from(pspPayments).orderBy(asc(pspPayments.createdAt));
      const linkIds = await tx
        .select({ id: pspPaymentLinks.id })
        .from(pspPaymentLinks)
        .orderBy(asc(pspPaymentLinks.createdAt));
      const links = [];
      for (const { id } of linkIds) {
        const view = await loadLink(psp, tx, { id }, base);
        if (view) links.push(paymentLinkEntity(view.link, view.order, view.payments, base));
      }
      const refunds = await tx.select().from(pspRefunds).orderBy(asc(pspRefunds.createdAt));
      const currencyOf = new Map(payments.map((p) => [p.id, p.currency]));
      return {
        orders: orders.map(orderEntity),
        payments: await Promise.all(payments.map((p) => paymentView(tx, p))),
        payment_links: links,
        refunds: refunds.map((r) => refundEntity(r, currencyOf.get(r.paymentId) ?? "INR")),
        accounts: (await tx.select().from(pspAccounts).orderBy(asc(pspAccounts.createdAt))).map(
          accountEntity,
        ),
        transfers: (await tx.select().from(pspTransfers).orderBy(asc(pspTransfers.createdAt))).map(
          transferEntity,
        ),
        reversals: (await tx.select().from(pspReversals).orderBy(asc(pspReversals.createdAt))).map(
          reversalEntity,
        ),
        webhooks: (
          await tx
            .select()
            .from(pspWebhookDeliveries)
            .orderBy(asc(pspWebhookDeliveries.createdAt), asc(pspWebhookDeliveries.id))
        ).map((d) => ({
          id: d.id,
          event: d.event,
          target_url: d.targetUrl,
          attempts: d.attempts,
          delivered: d.deliveredAt !== null,
          delivered_at: d.deliveredAt ? unix(d.deliveredAt) : null,
          held: psp.hold.waiting.some((w) => w.deliveryId === d.id),
          created_at: unix(d.createdAt),
          signature: d.signature,
          body: d.body,
        })),
      };
    });
    return c.json({
      ...state,
      webhook_target: psp.target?.url ?? null,
      webhooks_held: psp.hold.held,
    });
  });

  app.post("/_control/webhooks/:deliveryId/redeliver", async (c) => {
    const times = Number(c.req.query("times") ?? "1");
    if (!Number.isInteger(times) || times < 1 || times > 20)
      throw new PspError(400, "times is a whole number from 1 to 20", "times");
    const deliveryId = c.req.param("deliveryId");
    const [delivery] = await db
      .select({ id: pspWebhookDeliveries.id })
      .from(pspWebhookDeliveries)
      .where(eq(pspWebhookDeliveries.id, deliveryId));
    if (!delivery) throw new PspError(404, "There is no such webhook delivery", "deliveryId");
    await db.transaction(async (tx) => {
      for (let i = 0; i < times; i++) await sendDelivery(tx, psp.target, deliveryId, true);
    });
    return c.json({ id: deliveryId, queued: times, held: psp.hold.held });
  });

  app.post("/_control/webhooks/hold", async (c) => {
    const taken = await holdDeliveries(db, psp.hold);
    return c.json({ held: true, taken_off_the_queue: taken, waiting: psp.hold.waiting.length });
  });

  app.post("/_control/webhooks/release", async (c) => {
    const order = c.req.query("order") ?? "as-is";
    if (order !== "as-is" && order !== "reverse")
      throw new PspError(400, "order is as-is or reverse", "order");
    const released = await releaseDeliveries(db, psp.target, psp.hold, order);
    return c.json({ held: false, released });
  });

  // Sent at once (not queued), straight to the webhook target, and not recorded as a delivery.
  app.post("/_control/webhooks/forge", async (c) => {
    const input = await readBody(c, ForgeSchema);
    const target = psp.target;
    if (!target) throw new PspError(400, "This fake has no webhook target");
    if (!isLoopbackUrl(target.url))
      throw new PspError(400, "The webhook target is off this machine");
    const body = typeof input.body === "string" ? input.body : JSON.stringify(input.body);
    const bytes = Buffer.from(body, "utf8");
    const signature =
      input.signature === "absent"
        ? null
        : input.signature === "old-secret"
          ? signRazorpayWebhook(bytes, oldWebhookSecret)
          : // A well-formed signature of these bytes under a secret nobody has.
            signRazorpayWebhook(bytes, `${target.secret}-wrong`);
    const eventId = input.event_id ?? newPspId("evt");
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      "x-razorpay-event-id": eventId,
    };
    if (signature !== null) headers["X-Razorpay-Signature"] = signature;
    const response = await fetch(target.url, {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(5000),
    });
    await response.body?.cancel();
    return c.json({ event_id: eventId, signature, status: response.status });
  });
}
