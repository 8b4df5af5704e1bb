// A booking paid through GigLedger (docs/decisions/055): what agreeing, cancelling and capturing
// a payment do to its money. Every decision here writes the commands that carry it out to the
// provider in the same transaction (the outbox), so a crash never leaves one without the other.

import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { AgreementDocument, OfferDocument } from "~/features/agreements/agreement-document";
import { eventEndOf } from "~/features/agreements/agreement-times";
import { jobInsertSql, jobWakeSql } from "~/lib/jobs.server";
import { type Queryable, queryRows } from "~db/client";
import type { PROVIDER_COMMAND_KINDS } from "~db/enums";
import { moneyEventsOf, recordMoneyEvent } from "./money-events.server";
import { postCapture } from "./payment-ledger.server";
import { balanceGraceEnd, firstPaymentOf, paymentDueNow } from "./payment-schedule";

export const COMMANDS_QUEUE = "payments.commands";

/** The artist's payout is released this long after the event ends, unless a problem is reported. */
export const RELEASE_AFTER_HOURS = 48;

export const releaseAtOf = (agreement: Pick<AgreementDocument, "offer">) =>
  new Date(eventEndOf(agreement).getTime() + RELEASE_AFTER_HOURS * 3_600_000);

/** Whether agreeing to this offer leaves the booking awaiting its first payment. */
export const needsFirstPayment = (offer: OfferDocument, at: Date) =>
  offer.payments.paidThrough === "gigledger" && firstPaymentOf({ offer }, at) !== null;

/**
 * In the transaction that froze `agreement`: a booking paid through GigLedger now waiting for its
 * first payment has it asked for; a confirmed one (nothing to pay first, or a change agreed) has
 * its release time set from the event's end.
 */
export async function startBookingPayments(
  tx: Queryable,
  input: { bookingId: string; agreement: AgreementDocument; at: Date },
) {
  const { bookingId, agreement, at } = input;
  if (agreement.offer.payments.paidThrough !== "gigledger") return;
  const [booking] = await queryRows<{ status: string }>(
    tx,
    sql`SELECT status FROM bookings WHERE id = ${bookingId}`,
  );
  if (booking?.status === "awaiting_deposit") {
    const first = firstPaymentOf(agreement, at);
    if (first)
      await recordMoneyEvent(tx, {
        key: `first_payment_requested:${bookingId}`,
        bookingId,
        kind: "deposit_requested",
        amountPaise: first.amountPaise,
        at,
        detail: { purpose: first.purpose },
      });
    return;
  }
  await tx.execute(
    sql`UPDATE bookings SET release_at = ${releaseAtOf(agreement).toISOString()}
        WHERE id = ${bookingId} AND payout_released_at IS NULL`,
  );
}

/** What the client has paid through GigLedger for the booking and not had back. */
export async function paidPaiseOf(db: Queryable, bookingId: string): Promise<number> {
  const [row] = await queryRows<{ paid: string | number }>(
    db,
    sql`SELECT coalesce(sum(amount_paise - refunded_paise), 0) AS paid
        FROM payment_intents WHERE booking_id = ${bookingId} AND status = 'captured'`,
  );
  return Number(row?.paid ?? 0);
}

type CommandKind = (typeof PROVIDER_COMMAND_KINDS)[number];

/** Adds a command to the outbox and wakes the booking's command job; returns its id. */
export async function addCommand(
  tx: Queryable,
  command: {
    kind: CommandKind;
    bookingId: string;
    intentId?: string | null;
    request: Record<string, unknown>;
  },
): Promise<string> {
  const id = randomUUID();
  await tx.execute(
    sql`WITH added AS (
          INSERT INTO provider_commands (id, kind, booking_id, intent_id, idempotency_key, request)
          VALUES (${id}, ${command.kind}, ${command.bookingId}, ${command.intentId ?? null},
            ${id.replaceAll("-", "")}, ${JSON.stringify(command.request)}::jsonb)),
        queued AS (${jobInsertSql({ queue: COMMANDS_QUEUE, key: command.bookingId })})
        SELECT ${jobWakeSql(COMMANDS_QUEUE)}`,
  );
  return id;
}

/**
 * A cancellation of a booking paid through GigLedger, in its transaction: open payment requests
 * end; `refundPaise` (what the agreed policy gives back, `cancellationOutcome`) is refunded from
 * the newest payment first; whatever the artist keeps is released at once (nothing is left to
 * dispute about a cancelled event).
 */
export async function refundOnCancellation(
  tx: Queryable,
  input: { bookingId: string; refundPaise: number; at: Date; reason: string },
) {
  const { bookingId, at, reason } = input;
  await tx.execute(
    sql`UPDATE payment_intents SET status = 'cancelled', updated_at = now()
        WHERE booking_id = ${bookingId} AND status IN ('created', 'pending')`,
  );
  const paid = await paidPaiseOf(tx, bookingId);
  const refundPaise = Math.min(input.refundPaise, paid);
  await refundNewestFirst(tx, { bookingId, refundPaise, reason });
  if (refundPaise > 0)
    await recordMoneyEvent(tx, {
      key: `refund_started:${bookingId}:${reason}`,
      bookingId,
      kind: "refund_started",
      amountPaise: refundPaise,
      at,
      detail: { reason },
    });
  if (paid - refundPaise > 0)
    await addCommand(tx, { kind: "release_transfer", bookingId, request: { reason } });
}

async function refundNewestFirst(
  tx: Queryable,
  input: { bookingId: string; refundPaise: number; reason: string },
) {
  const captured = await queryRows<{ id: string; paymentId: string; left: string | number }>(
    tx,
    sql`SELECT id, provider_payment_id AS "paymentId", amount_paise - refunded_paise AS "left"
        FROM payment_intents WHERE booking_id = ${input.bookingId} AND status = 'captured'
        ORDER BY captured_at DESC, id`,
  );
  let left = input.refundPaise;
  for (const intent of captured) {
    const amount = Math.min(left, Number(intent.left));
    if (amount <= 0) continue;
    left -= amount;
    await addCommand(tx, {
      kind: "refund",
      bookingId: input.bookingId,
      intentId: intent.id,
      request: { paymentId: intent.paymentId, amountPaise: amount, reason: input.reason },
    });
  }
}

/** What the bookings feature does when a first payment arrives: confirm, or say it cannot. */
export type PaymentHooks = {
  /** Confirms the booking and sets its payout's release time, in one write. */
  confirmPaidBooking(
    tx: Queryable,
    bookingId: string,
    at: Date,
    releaseAt?: Date,
  ): Promise<"confirmed" | "date_taken">;
};

type IntentRow = {
  id: string;
  bookingId: string;
  purpose: "deposit" | "balance" | "full";
  amountPaise: number;
  artistSharePaise: number;
  commissionPaise: number;
  gstPaise: number;
  tdsPaise: number;
  status: string;
  providerPaymentId: string | null;
};

/**
 * The provider says `paymentId` captured the intent's amount (a webhook or the reconciler: one
 * state machine, two inputs). Applied once, in the caller's transaction: the intent is captured,
 * the ledger posts it, and the booking is confirmed (a first payment) or recorded as paid (the
 * balance); the artist's share is then transferred on hold. A payment the booking can no longer
 * take (cancelled, lapsed, its date taken meanwhile, or paid twice) is refunded in full.
 */
export async function applyCapture(
  tx: Queryable,
  hooks: PaymentHooks,
  input: { intentId: string; paymentId: string; amountPaise: number; at: Date; source: string },
): Promise<"applied" | "ignored" | "mismatch" | "refunded" | "orphan"> {
  // The intent and its booking, both locked: whatever else concerns the booking waits from here.
  const [intent] = await queryRows<IntentRow & { bookingStatus: string }>(
    tx,
    sql`SELECT i.id, i.booking_id AS "bookingId", i.purpose, i.amount_paise AS "amountPaise",
          i.artist_share_paise AS "artistSharePaise", i.commission_paise AS "commissionPaise",
          i.gst_paise AS "gstPaise", i.tds_paise AS "tdsPaise", i.status,
          i.provider_payment_id AS "providerPaymentId", b.status AS "bookingStatus"
        FROM payment_intents i JOIN bookings b ON b.id = i.booking_id
        WHERE i.id = ${input.intentId} FOR UPDATE OF i, b`,
  );
  if (!intent) return "orphan";
  const amountPaise = Number(intent.amountPaise);
  if (intent.status === "captured") return "ignored";
  if (input.amountPaise !== amountPaise) return "mismatch";
  const { bookingId } = intent;
  const booking = { status: intent.bookingStatus };
  // A second payment for what is paid already is captured under its own (cancelled) intent. A new
  // statement, under the locks: it sees whatever the booking's previous holder committed, and
  // brings back the agreement in force (its event's end sets the payout's release).
  const [captured] = await queryRows<{ capturedAlready: boolean; agreementJson: string | null }>(
    tx,
    sql`UPDATE payment_intents i SET status = CASE WHEN EXISTS (
            SELECT 1 FROM payment_intents p WHERE p.booking_id = i.booking_id
              AND p.purpose = i.purpose AND p.status = 'captured') THEN 'cancelled' ELSE 'captured' END,
          provider_payment_id = ${input.paymentId}, captured_at = ${input.at.toISOString()},
          updated_at = now()
        WHERE i.id = ${intent.id}
        RETURNING i.status = 'cancelled' AS "capturedAlready",
          (SELECT a.json FROM agreements a WHERE a.booking_id = i.booking_id
            AND a.status = 'in_force') AS "agreementJson"`,
  );
  const capturedAlready = captured?.capturedAlready ?? false;
  // Posted last, just before the commit: every capture moves money out of `world:razorpay`,
  // whose row lock is held from the posting to the commit, so concurrent events queue on it for
  // as short a time as possible.
  const postTheCapture = () =>
    postCapture(tx, {
      bookingId,
      at: input.at,
      source: input.source,
      paymentId: input.paymentId,
      split: {
        amountPaise,
        artistSharePaise: Number(intent.artistSharePaise),
        commissionPaise: Number(intent.commissionPaise),
        gstPaise: Number(intent.gstPaise),
        tdsPaise: Number(intent.tdsPaise),
      },
    });
  await recordMoneyEvent(tx, {
    key: `payment_received:${input.paymentId}`,
    bookingId,
    kind: "payment_received",
    amountPaise,
    at: input.at,
    detail: { purpose: intent.purpose, paymentId: input.paymentId },
  });

  // The payout's release time, from the agreement in force: set with the confirmation (a first
  // payment), or on its own (a balance: the agreement may have changed since).
  const releaseAt = captured?.agreementJson
    ? releaseAtOf(
        (JSON.parse(captured.agreementJson) as { agreement: AgreementDocument }).agreement,
      )
    : undefined;
  const firstPayment = intent.purpose !== "balance";
  let payable = !capturedAlready;
  if (payable && firstPayment) {
    payable =
      booking?.status === "awaiting_deposit" &&
      (await hooks.confirmPaidBooking(tx, bookingId, input.at, releaseAt)) === "confirmed";
  } else if (payable) {
    payable = booking?.status === "confirmed" || booking?.status === "completed";
  }
  if (!payable) {
    await addCommand(tx, {
      kind: "refund",
      bookingId,
      intentId: intent.id,
      request: { paymentId: input.paymentId, amountPaise, reason: "not_payable" },
    });
    await recordMoneyEvent(tx, {
      key: `automatic_refund:${input.paymentId}`,
      bookingId,
      kind: "automatic_refund",
      amountPaise,
      at: input.at,
      detail: { paymentId: input.paymentId },
    });
    await postTheCapture();
    return "refunded";
  }
  if (releaseAt && !firstPayment)
    await tx.execute(
      sql`UPDATE bookings SET release_at = ${releaseAt.toISOString()}
          WHERE id = ${bookingId} AND payout_released_at IS NULL`,
    );
  if (Number(intent.artistSharePaise) > 0)
    await addCommand(tx, {
      kind: "create_transfer",
      bookingId,
      intentId: intent.id,
      request: { paymentId: input.paymentId, amountPaise: Number(intent.artistSharePaise) },
    });
  await postTheCapture();
  return "applied";
}

/** The due date the artist last gave for the balance ("Give more time"), if any. */
export async function balanceDueOverride(db: Queryable, bookingId: string): Promise<Date | null> {
  const events = await moneyEventsOf(db, bookingId);
  const given = events.filter((e) => e.kind === "more_time_given").at(-1);
  return given && typeof given.detail.dueAt === "string" ? new Date(given.detail.dueAt) : null;
}

/** The booking's agreement in force paid through GigLedger, with its status, or null. */
export async function paidAgreementOf(db: Queryable, bookingId: string) {
  const [row] = await queryRows<{
    json: string;
    agreementId: string;
    status: string;
    respondedAt: Date | string | null;
    clientUserId: string | null;
  }>(
    db,
    sql`SELECT a.json, a.id AS "agreementId", b.status, b.responded_at AS "respondedAt",
          b.client_user_id AS "clientUserId"
        FROM bookings b JOIN agreements a ON a.booking_id = b.id AND a.status = 'in_force'
        WHERE b.id = ${bookingId} AND a.paid_through = 'gigledger'`,
  );
  if (!row) return null;
  return {
    agreementId: row.agreementId,
    agreement: (JSON.parse(row.json) as { agreement: AgreementDocument }).agreement,
    status: row.status,
    respondedAt: row.respondedAt ? new Date(row.respondedAt) : null,
    clientUserId: row.clientUserId,
  };
}

/**
 * The balance still owed on a booking paid through GigLedger and when it was due, once its grace
 * has passed (or, with `dueOnly`, as soon as anything is owed); null otherwise.
 */
export async function overdueBalanceOf(
  db: Queryable,
  bookingId: string,
  at: Date,
  options: { dueOnly?: boolean } = {},
): Promise<{ dueAt: Date; amountPaise: number } | null> {
  const paid = await paidAgreementOf(db, bookingId);
  if (!paid) return null;
  const due = paymentDueNow({
    agreement: paid.agreement,
    status: paid.status,
    capturedPaise: await paidPaiseOf(db, bookingId),
    at,
    balanceDueOverride: await balanceDueOverride(db, bookingId),
  });
  if (!due || due.purpose !== "balance") return null;
  if (!options.dueOnly && balanceGraceEnd(due.dueAt) > at) return null;
  return { dueAt: due.dueAt, amountPaise: due.amountPaise };
}

/** The artist gave the client until `dueAt` to pay the balance: the new due date in force. */
export async function giveBalanceTime(
  tx: Queryable,
  input: { bookingId: string; dueAt: Date; at: Date },
) {
  await recordMoneyEvent(tx, {
    key: `more_time:${input.bookingId}:${input.at.toISOString()}`,
    bookingId: input.bookingId,
    kind: "more_time_given",
    at: input.at,
    detail: { dueAt: input.dueAt.toISOString() },
  });
}

/** The booking was cancelled because its balance was not paid. */
export async function recordNonPayment(tx: Queryable, input: { bookingId: string; at: Date }) {
  await recordMoneyEvent(tx, {
    key: `non_payment:${input.bookingId}`,
    bookingId: input.bookingId,
    kind: "cancelled_for_non_payment",
    at: input.at,
    detail: { stage: "balance" },
  });
}
