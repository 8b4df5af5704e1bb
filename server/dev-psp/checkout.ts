/**
 * Paying an order, shared by the order checkout (`/checkout/:orderId`) and the Payment Link page
 * (`/pay/:plinkId`): one payment captured or failed at once, the order (and its link) updated,
 * and the webhooks queued in the transaction that records them.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Queryable } from "~db/client";
import { pspOrders, pspPaymentLinks, pspPayments } from "~db/schema";
import type { Psp } from "./common";
import {
  type Order,
  orderEntity,
  type Payment,
  type PaymentLink,
  paymentEntity,
  paymentLinkEntity,
} from "./entities";
import { newPspId, queueWebhook } from "./webhooks";

/** The notes a payment carries: its payment link's, when its order belongs to one. */
export async function paymentNotes(q: Queryable, orderId: string): Promise<Record<string, string>> {
  const [link] = await q
    .select({ notes: pspPaymentLinks.notes })
    .from(pspPaymentLinks)
    .where(eq(pspPaymentLinks.orderId, orderId));
  return link?.notes ?? {};
}

export async function paymentView(q: Queryable, payment: Payment) {
  return paymentEntity(payment, await paymentNotes(q, payment.orderId));
}

export type LinkView = { link: PaymentLink; order: Order; payments: Payment[] };

/**
 * A payment link with its order and payments, locked when asked. A link still `created` whose
 * `expire_by` has passed by the fake's time becomes `expired` here (with its webhook).
 */
export async function loadLink(
  psp: Psp,
  tx: Queryable,
  where: { id: string } | { orderId: string },
  base: string,
  lock = false,
): Promise<LinkView | null> {
  const condition =
    "id" in where ? eq(pspPaymentLinks.id, where.id) : eq(pspPaymentLinks.orderId, where.orderId);
  const query = tx.select().from(pspPaymentLinks).where(condition);
  let [link] = lock ? await query.for("update") : await query;
  if (!link) return null;
  const [order] = await tx.select().from(pspOrders).where(eq(pspOrders.id, link.orderId));
  if (!order) throw new Error(`payment link ${link.id} has no order`);
  const payments = await tx
    .select()
    .from(pspPayments)
    .where(eq(pspPayments.orderId, order.id))
    .orderBy(asc(pspPayments.createdAt), asc(pspPayments.id));
  if (link.status === "created" && link.expireBy && link.expireBy <= psp.now()) {
    const [expired] = await tx
      .update(pspPaymentLinks)
      .set({ status: "expired" })
      .where(sql`${pspPaymentLinks.id} = ${link.id} AND ${pspPaymentLinks.status} = 'created'`)
      .returning();
    if (expired) {
      link = expired;
      await queueWebhook(tx, psp.target, {
        event: "payment_link.expired",
        payload: { payment_link: { entity: paymentLinkEntity(link, order, payments, base) } },
      });
    }
  }
  return { link, order, payments };
}

export type PayResult =
  | { kind: "missing" }
  | { kind: "paid-already"; order: Order }
  | { kind: "closed"; link: PaymentLink }
  | {
      kind: "captured" | "failed";
      order: Order;
      payment: Payment;
      link: PaymentLink | null;
    };

/**
 * One payment on an order, in one transaction: captured (the order `paid`, its link `paid`) or
 * failed (the order `attempted`). A paid order takes no second payment; a cancelled or expired
 * link takes none at all.
 */
export async function payOrder(
  psp: Psp,
  orderId: string,
  outcome: "pay" | "fail",
  base: string,
): Promise<PayResult> {
  return psp.db.transaction(async (tx) => {
    const [order] = await tx
      .select()
      .from(pspOrders)
      .where(eq(pspOrders.id, orderId))
      .for("update");
    if (!order) return { kind: "missing" as const };
    const view = await loadLink(psp, tx, { orderId }, base, true);
    if (order.status === "paid" || view?.link.status === "paid")
      return { kind: "paid-already" as const, order };
    if (view && view.link.status !== "created") return { kind: "closed" as const, link: view.link };
    const failed = outcome === "fail";
    const now = psp.now();
    const [payment] = await tx
      .insert(pspPayments)
      .values({
        id: newPspId("pay"),
        orderId,
        amount: order.amount,
        currency: order.currency,
        status: failed ? "failed" : "captured",
        errorCode: failed ? "BAD_REQUEST_ERROR" : null,
        errorDescription: failed ? "Payment failed" : null,
        createdAt: now,
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
    let link = view?.link ?? null;
    if (link && !failed) {
      const [paid] = await tx
        .update(pspPaymentLinks)
        .set({ status: "paid" })
        .where(eq(pspPaymentLinks.id, link.id))
        .returning();
      link = paid ?? link;
    }
    const notes = link?.notes ?? {};
    const paymentBody = { entity: paymentEntity(payment, notes) };
    if (failed) {
      await queueWebhook(tx, psp.target, {
        event: "payment.failed",
        payload: { payment: paymentBody },
      });
    } else {
      await queueWebhook(tx, psp.target, {
        event: "payment.captured",
        payload: { payment: paymentBody },
      });
      await queueWebhook(tx, psp.target, {
        event: "order.paid",
        payload: { payment: paymentBody, order: { entity: orderEntity(updated) } },
      });
      if (link) {
        const payments = [...(view?.payments ?? []), payment];
        await queueWebhook(tx, psp.target, {
          event: "payment_link.paid",
          payload: {
            payment_link: { entity: paymentLinkEntity(link, updated, payments, base) },
            order: { entity: orderEntity(updated) },
            payment: paymentBody,
          },
        });
      }
    }
    return {
      kind: failed ? ("failed" as const) : ("captured" as const),
      order: updated,
      payment,
      link,
    };
  });
}
