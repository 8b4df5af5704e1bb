// What a booking's page shows of its money (docs/product.md, "Payments"): what is due now, what
// was paid, refunded, held and released, with dates, and the timeline. Reads only; the caller has
// checked that the viewer is one of the booking's two parties.

import { sql } from "drizzle-orm";
import { type Database, queryRows } from "~db/client";
import { balanceDueOverride, paidAgreementOf, paidPaiseOf } from "./booking-payments.server";

import { type MoneyEventKind, moneyEventsOf } from "./money-events.server";
import { balanceGraceEnd, type PaymentPurpose, paymentDueNow } from "./payment-schedule";

export type MoneyView = {
  due: { purpose: PaymentPurpose; amountPaise: number; dueAt: string; overdue: boolean } | null;
  totalPaise: number;
  paidPaise: number;
  refundedPaise: number;
  /** The artist's share transferred and waiting for release, after commission. */
  heldPaise: number;
  releasedPaise: number;
  releaseAt: string | null;
  releasedAt: string | null;
  /** A payment or refund the provider has not confirmed yet. */
  confirming: boolean;
  refundInProgress: boolean;
  commissionBps: number;
  events: { kind: MoneyEventKind; amountPaise: number | null; at: string; reason: string | null }[];
};

export async function moneyViewOf(
  db: Database,
  bookingId: string,
  now: Date,
): Promise<MoneyView | null> {
  const paid = await paidAgreementOf(db, bookingId).then(
    async (inForce) =>
      inForce ??
      // A cancelled booking keeps showing its money: its last agreement paid through GigLedger.
      (await queryRows<{ id: string }>(
        db,
        sql`SELECT id FROM agreements WHERE booking_id = ${bookingId}
            AND paid_through = 'gigledger' LIMIT 1`,
      ).then((rows) => (rows.length > 0 ? ("ended" as const) : null))),
  );
  if (!paid) return null;
  const [sums] = await queryRows<Record<string, string | number | null>>(
    db,
    sql`SELECT
          (SELECT coalesce(sum(amount_paise), 0) FROM payment_intents
            WHERE booking_id = ${bookingId} AND status = 'captured') AS paid,
          (SELECT coalesce(sum(refunded_paise), 0) FROM payment_intents
            WHERE booking_id = ${bookingId}) AS refunded,
          (SELECT coalesce(sum(amount_paise - reversed_paise), 0) FROM provider_transfers
            WHERE booking_id = ${bookingId} AND released_at IS NULL) AS held,
          (SELECT coalesce(sum(amount_paise - reversed_paise), 0) FROM provider_transfers
            WHERE booking_id = ${bookingId} AND released_at IS NOT NULL) AS released,
          (SELECT count(*) FROM payment_intents WHERE booking_id = ${bookingId}
            AND status = 'pending') AS pending,
          (SELECT count(*) FROM provider_commands WHERE booking_id = ${bookingId}
            AND kind = 'refund' AND status <> 'succeeded') AS refunding,
          b.release_at AS "releaseAt", b.payout_released_at AS "releasedAt"
        FROM bookings b WHERE b.id = ${bookingId}`,
  );
  const events = await moneyEventsOf(db, bookingId);
  const agreement = paid === "ended" ? null : paid.agreement;
  let due: MoneyView["due"] = null;
  if (paid !== "ended") {
    const dueNow = paymentDueNow({
      agreement: paid.agreement,
      status: paid.status,
      capturedPaise: await paidPaiseOf(db, bookingId),
      at: now,
      balanceDueOverride: await balanceDueOverride(db, bookingId),
    });
    if (dueNow)
      due = {
        purpose: dueNow.purpose,
        amountPaise: dueNow.amountPaise,
        dueAt: dueNow.dueAt.toISOString(),
        overdue: dueNow.purpose === "balance" && balanceGraceEnd(dueNow.dueAt) <= now,
      };
  }
  const iso = (value: string | number | null | undefined) =>
    value === null || value === undefined ? null : new Date(value).toISOString();
  return {
    due,
    totalPaise: agreement?.offer.price.totalPaise ?? 0,
    paidPaise: Number(sums?.paid ?? 0),
    refundedPaise: Number(sums?.refunded ?? 0),
    heldPaise: Number(sums?.held ?? 0),
    releasedPaise: Number(sums?.released ?? 0),
    releaseAt: iso(sums?.releaseAt),
    releasedAt: iso(sums?.releasedAt),
    confirming: Number(sums?.pending ?? 0) > 0,
    refundInProgress: Number(sums?.refunding ?? 0) > 0,
    commissionBps: agreement?.offer.payments.commissionBps ?? 0,
    events: events.map((e) => ({
      kind: e.kind,
      amountPaise: e.amountPaise,
      at: e.at.toISOString(),
      reason: typeof e.detail.reason === "string" ? e.detail.reason : null,
    })),
  };
}
