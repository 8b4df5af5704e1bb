// The payments' background work (docs/decisions/055), by the app's clock: events applied,
// commands carried out, payouts released 48 hours after the event, unpaid deposits lapsed,
// balance reminders, the reconciler asking the provider about what waits too long, and mails.

import { sql } from "drizzle-orm";
import type { AgreementDocument } from "~/features/agreements/agreement-document";
import { balanceDueAt } from "~/features/agreements/agreement-times";
import { endAgreement } from "~/features/agreements/agreements.server";
import type { Clock } from "~/lib/clock.server";
import type { Env } from "~/lib/env.server";
import type { QueueHandler } from "~/lib/jobs.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/lib/mail.server";
import { type Database, type Queryable, queryRows } from "~db/client";
import {
  addCommand,
  applyCapture,
  type PaymentHooks,
  paidPaiseOf,
} from "./booking-payments.server";
import { keepYesterdaysReconciliation } from "./desk.server";
import { recordMoneyEvent } from "./money-events.server";
import { moneyMailJobs } from "./money-mails.server";
import { commandJobs, type FaultPoint } from "./payment-commands.server";
import { eventJobs } from "./payment-events.server";
import { balanceGraceEnd, depositDeadline, paymentDueNow } from "./payment-schedule";
import { paymentProviderOf } from "./provider.server";

type Ctx = { db: Database; env: Env; logger: Logger; mailer: Mailer; clock: Clock };

export const RELEASE_QUEUE = "payments.release";
export const LAPSE_QUEUE = "payments.lapse";
export const REMINDERS_QUEUE = "payments.reminders";
export const RECONCILE_QUEUE = "payments.reconcile";
export const DAILY_RECONCILIATION_QUEUE = "payments.reconcile-daily";

export function paymentJobs(ctx: Ctx, hooks: PaymentHooks, fault?: FaultPoint): QueueHandler[] {
  if (ctx.env.payments.mode === "off") return [];
  return [
    ...eventJobs(ctx, hooks, fault),
    ...commandJobs(ctx, fault),
    ...moneyMailJobs(ctx),
    {
      queue: RELEASE_QUEUE,
      everySeconds: 600,
      leaseSeconds: 300,
      inTransaction: async (tx) => {
        await releaseDuePayouts(tx, ctx.clock.now());
      },
    },
    {
      queue: LAPSE_QUEUE,
      everySeconds: 600,
      leaseSeconds: 300,
      inTransaction: async (tx) => {
        await lapseUnpaidDeposits(tx, ctx.clock.now());
      },
    },
    {
      queue: REMINDERS_QUEUE,
      everySeconds: 3600,
      leaseSeconds: 300,
      inTransaction: async (tx) => {
        await remindBalances(tx, ctx.clock.now());
      },
    },
    {
      queue: RECONCILE_QUEUE,
      everySeconds: 300,
      leaseSeconds: 240,
      outside: async () => {
        await reconcilePendingIntents(ctx, hooks);
      },
    },
    {
      // Yesterday's reconciliation report, kept for the operator's desk (decision 058).
      queue: DAILY_RECONCILIATION_QUEUE,
      everySeconds: 3600,
      leaseSeconds: 600,
      outside: async () => {
        await keepYesterdaysReconciliation(ctx.db, ctx.env, ctx.clock.now());
      },
    },
  ];
}

type Tx = Queryable;

/**
 * Payouts whose time has come (the event's end + 48 hours by the app's clock), not yet released,
 * of bookings that stand and no undecided problem report holds: a release command each.
 */
export async function releaseDuePayouts(tx: Tx, now: Date) {
  const due = await queryRows<{ id: string }>(
    tx,
    sql`SELECT b.id FROM bookings b
        WHERE b.release_at <= ${now.toISOString()} AND b.payout_released_at IS NULL
          AND b.status IN ('confirmed', 'completed')
          AND EXISTS (SELECT 1 FROM provider_transfers t WHERE t.booking_id = b.id
            AND t.released_at IS NULL)
          AND NOT EXISTS (SELECT 1 FROM provider_commands c WHERE c.booking_id = b.id
            AND c.kind = 'release_transfer' AND c.status <> 'succeeded')
          -- Held while a problem report is undecided; never after a full refund (decision 058).
          AND NOT EXISTS (SELECT 1 FROM problem_reports p WHERE p.booking_id = b.id
            AND (p.decision IS NULL OR p.decision = 'refund_full'))
        ORDER BY b.release_at LIMIT 200`,
  );
  for (const booking of due)
    await addCommand(tx, {
      kind: "release_transfer",
      bookingId: booking.id,
      request: { reason: "event_passed" },
    });
  return due.length;
}

/** Agreed bookings whose first payment did not come in time are cancelled; nothing was paid. */
export async function lapseUnpaidDeposits(tx: Tx, now: Date) {
  const waiting = await queryRows<{ id: string; json: string; respondedAt: Date | string }>(
    tx,
    sql`SELECT b.id, a.json, b.responded_at AS "respondedAt" FROM bookings b
        JOIN agreements a ON a.booking_id = b.id AND a.status = 'in_force'
        WHERE b.status = 'awaiting_deposit' FOR UPDATE OF b`,
  );
  let lapsed = 0;
  for (const booking of waiting) {
    const agreement = (JSON.parse(booking.json) as { agreement: AgreementDocument }).agreement;
    if (depositDeadline(agreement, new Date(booking.respondedAt)) > now) continue;
    await tx.execute(
      sql`UPDATE bookings SET status = 'cancelled', cancelled_at = ${now.toISOString()},
            cancelled_by = 'client', cancel_reason = 'The deposit was not paid in time.',
            updated_at = now()
          WHERE id = ${booking.id}`,
    );
    await tx.execute(
      sql`UPDATE payment_intents SET status = 'expired', updated_at = now()
          WHERE booking_id = ${booking.id} AND status IN ('created', 'pending')`,
    );
    await endAgreement(tx, booking.id, now);
    await recordMoneyEvent(tx, {
      key: `lapsed:${booking.id}`,
      bookingId: booking.id,
      kind: "cancelled_for_non_payment",
      at: now,
      detail: { stage: "deposit" },
    });
    lapsed += 1;
  }
  return lapsed;
}

const DAY = 86_400_000;

/** Balance reminders 3 days before the due day, on it and the day after; each sent once. */
export async function remindBalances(tx: Tx, now: Date) {
  const open = await queryRows<{ id: string; json: string }>(
    tx,
    sql`SELECT b.id, a.json FROM bookings b
        JOIN agreements a ON a.booking_id = b.id AND a.status = 'in_force'
        WHERE b.status = 'confirmed' AND a.paid_through = 'gigledger'`,
  );
  for (const booking of open) {
    const agreement = (JSON.parse(booking.json) as { agreement: AgreementDocument }).agreement;
    const due = paymentDueNow({
      agreement,
      status: "confirmed",
      capturedPaise: await paidPaiseOf(tx, booking.id),
      at: now,
    });
    if (!due) continue;
    const dueAt = balanceDueAt(agreement).getTime();
    const stages = [
      { stage: "3_days_before", from: dueAt - 3 * DAY },
      { stage: "due_today", from: dueAt },
      { stage: "overdue", from: dueAt + DAY },
    ].filter((s) => now.getTime() >= s.from && now.getTime() < s.from + DAY);
    for (const { stage } of stages)
      await recordMoneyEvent(tx, {
        key: `balance_reminder:${booking.id}:${stage}`,
        bookingId: booking.id,
        kind: "balance_reminder",
        amountPaise: due.amountPaise,
        at: now,
        detail: { stage, graceEndsAt: balanceGraceEnd(new Date(dueAt)).toISOString() },
      });
  }
}

/**
 * The reconciler: payment requests that have waited more than 15 minutes are asked about; a paid
 * one is applied as its webhook would have been (one state machine, two inputs), an expired or
 * cancelled one is closed.
 */
export async function reconcilePendingIntents(ctx: Ctx, hooks: PaymentHooks) {
  const provider = paymentProviderOf(ctx.env);
  if (!provider) return;
  const now = ctx.clock.now();
  const pending = await queryRows<{ id: string; linkId: string }>(
    ctx.db,
    sql`SELECT id, provider_link_id AS "linkId" FROM payment_intents
        WHERE status = 'pending' AND provider_link_id IS NOT NULL
          AND updated_at < now() - interval '15 minutes' ORDER BY updated_at LIMIT 100`,
  );
  for (const intent of pending) {
    const link = await provider.fetchPaymentLink(intent.linkId);
    const payment = link.payments.find((p) => p.status === "captured");
    if (link.status === "paid" && payment) {
      await ctx.db.transaction((tx) =>
        applyCapture(tx, hooks, {
          intentId: intent.id,
          paymentId: payment.paymentId,
          amountPaise: payment.amount,
          at: now,
          source: "job:reconcile",
        }),
      );
    } else if (link.status === "expired" || link.status === "cancelled") {
      await ctx.db.execute(
        sql`UPDATE payment_intents SET status = 'expired', updated_at = now()
            WHERE id = ${intent.id} AND status = 'pending'`,
      );
    } else {
      await ctx.db.execute(
        sql`UPDATE payment_intents SET updated_at = now() WHERE id = ${intent.id}`,
      );
    }
  }
}
