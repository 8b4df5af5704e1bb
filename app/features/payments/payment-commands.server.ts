// The outbox's worker (docs/decisions/055): carries out a booking's provider commands in the
// order they were decided, each with the key that makes a retry safe (the refund's idempotency
// key; the transfer's and the reversal's reference, looked up before anything is made again).
// The provider's answer and our books commit together, once, however often a command is tried.

import { sql } from "drizzle-orm";
import type { Clock } from "~/lib/clock.server";
import type { Env } from "~/lib/env.server";
import type { QueueHandler } from "~/lib/jobs.server";
import type { Logger } from "~/lib/logger.server";
import { type Database, type Queryable, queryRows } from "~db/client";
import { COMMANDS_QUEUE } from "./booking-payments.server";
import { type FaultPoint, faultPointsOf, noFaults } from "./faults.server";
import { issueCommissionInvoice } from "./invoice-numbers.server";
import { recordMoneyEvent } from "./money-events.server";
import { postHeldTransfer, postRefund, postRelease } from "./payment-ledger.server";
import { type PaymentProvider, ProviderError } from "./payment-provider";
import { feeRatesFor, refundSplit, splitPayment } from "./payment-split";
import { paymentProviderOf } from "./provider.server";

type Ctx = { db: Database; env: Env; logger: Logger; clock: Clock };

type Command = {
  id: string;
  kind: "create_transfer" | "release_transfer" | "reverse_transfer" | "refund";
  bookingId: string;
  intentId: string | null;
  idempotencyKey: string;
  request: Record<string, unknown>;
};

// The crash tests' seam (faults.server.ts): called right after the provider answered, before our
// write ("commands.after-provider-call"; "release.after-provider-call" for a release).
export type { FaultPoint };

export function commandJobs(ctx: Ctx, fault: FaultPoint = faultPointsOf(ctx.env)): QueueHandler[] {
  return [
    {
      queue: COMMANDS_QUEUE,
      leaseSeconds: 120,
      outside: async (job) => {
        const provider = paymentProviderOf(ctx.env);
        if (!provider) return;
        await runBookingCommands(ctx, provider, job.key, fault);
      },
    },
  ];
}

/**
 * Runs the booking's pending commands, oldest first; of those decided together (one transaction,
 * one `created_at`), transfers first and releases last, so a cancellation's refund takes the
 * artist's part back from the held transfer before what the artist keeps is released. (Ordered
 * by id alone, half of such cancellations released the whole share first and their refund then
 * failed for ever on an empty `artist_hold`.) A provider that gives no usable answer
 * (a timeout, 5xx) throws, and the job retries later with the same keys; one that refuses marks
 * the command for the operator and stops the booking's later commands, which may depend on it.
 */
export async function runBookingCommands(
  ctx: Ctx,
  provider: PaymentProvider,
  bookingId: string,
  fault: FaultPoint = noFaults,
) {
  const pending = await queryRows<Command>(
    ctx.db,
    sql`SELECT id, kind, booking_id AS "bookingId", intent_id AS "intentId",
          idempotency_key AS "idempotencyKey", request
        FROM provider_commands WHERE booking_id = ${bookingId} AND status = 'pending'
        ORDER BY created_at,
          CASE kind WHEN 'create_transfer' THEN 0 WHEN 'release_transfer' THEN 2 ELSE 1 END, id`,
  );
  for (const command of pending) {
    try {
      await runCommand(ctx, provider, command, fault);
    } catch (error) {
      if (error instanceof ProviderError && !error.isRetryable) {
        await ctx.db.execute(
          sql`UPDATE provider_commands SET status = 'needs_attention', last_error = ${error.message},
                attempts = attempts + 1 WHERE id = ${command.id}`,
        );
        ctx.logger.error({ command: command.id, err: error.message }, "provider refused a command");
        return;
      }
      await ctx.db.execute(
        sql`UPDATE provider_commands SET attempts = attempts + 1,
              last_error = ${error instanceof Error ? error.message : String(error)}
            WHERE id = ${command.id}`,
      );
      throw error;
    }
  }
}

/** Locks the command and runs `write` only if it is still pending: the effect commits once. */
async function completeOnce(
  db: Database,
  commandId: string,
  response: Record<string, unknown>,
  write: (tx: Queryable) => Promise<void>,
) {
  await db.transaction(async (tx) => {
    const [row] = await queryRows<{ status: string }>(
      tx,
      sql`SELECT status FROM provider_commands WHERE id = ${commandId} FOR UPDATE`,
    );
    if (row?.status !== "pending") return;
    await write(tx);
    await tx.execute(
      sql`UPDATE provider_commands SET status = 'succeeded', done_at = now(),
            response = ${JSON.stringify(response)}::jsonb, attempts = attempts + 1
          WHERE id = ${commandId}`,
    );
  });
}

async function runCommand(
  ctx: Ctx,
  provider: PaymentProvider,
  command: Command,
  fault: FaultPoint,
) {
  const at = ctx.clock.now();
  const source = `command:${command.id}`;
  const { bookingId } = command;
  switch (command.kind) {
    case "create_transfer": {
      const paymentId = String(command.request.paymentId);
      const amount = Number(command.request.amountPaise);
      const [account] = await queryRows<{ accountId: string }>(
        ctx.db,
        sql`SELECT p.provider_account_id AS "accountId" FROM bookings b
            JOIN payout_accounts p ON p.artist_profile_id = b.artist_profile_id
            WHERE b.id = ${bookingId}`,
      );
      if (!account) throw new ProviderError("refused", "The artist has no payout account");
      const transfer = await provider.createHeldTransfer({
        paymentId,
        accountId: account.accountId,
        amount,
        ref: command.idempotencyKey,
      });
      fault("commands.after-provider-call");
      await completeOnce(ctx.db, command.id, { transferId: transfer.id }, async (tx) => {
        await tx.execute(
          sql`INSERT INTO provider_transfers (id, intent_id, booking_id, amount_paise, on_hold)
              VALUES (${transfer.id}, ${command.intentId}, ${bookingId}, ${amount}, true)
              ON CONFLICT DO NOTHING`,
        );
        await postHeldTransfer(tx, {
          bookingId,
          at,
          source,
          transferId: transfer.id,
          amountPaise: amount,
        });
        await recordMoneyEvent(tx, {
          key: `payout_held:${transfer.id}`,
          bookingId,
          kind: "payout_held",
          amountPaise: amount,
          at,
        });
      });
      return;
    }
    case "refund": {
      const intentId = command.intentId as string;
      const amount = Number(command.request.amountPaise);
      const paymentId = String(command.request.paymentId);
      const [intent] = await queryRows<{
        amount: string | number;
        refunded: string | number;
        commissionBps: number | null;
      }>(
        ctx.db,
        sql`SELECT i.amount_paise AS amount, i.refunded_paise AS refunded,
              (a.json::jsonb -> 'agreement' -> 'offer' -> 'payments' ->> 'commissionBps')::int
                AS "commissionBps"
            FROM payment_intents i JOIN agreements a ON a.id = i.agreement_id
            WHERE i.id = ${intentId}`,
      );
      if (!intent) throw new ProviderError("refused", "The payment to refund is unknown");
      const rates = feeRatesFor(intent.commissionBps ?? ctx.env.commissionBps);
      const { back } = refundSplit(Number(intent.amount), Number(intent.refunded), amount, rates);
      const [transfer] = await queryRows<{ id: string; left: string | number }>(
        ctx.db,
        sql`SELECT id, amount_paise - reversed_paise AS "left" FROM provider_transfers
            WHERE intent_id = ${intentId}`,
      );
      const reverse = transfer ? Math.min(back.artistSharePaise, Number(transfer.left)) : 0;
      // Reversals first: the artist's held share comes back before the client is refunded.
      if (transfer && reverse > 0)
        await provider.reverseTransfer({
          transferId: transfer.id,
          amount: reverse,
          ref: command.idempotencyKey,
        });
      const refund = await provider.refund({
        paymentId,
        amount,
        idempotencyKey: command.idempotencyKey,
        notes: { gl_booking: bookingId },
      });
      fault("commands.after-provider-call");
      await completeOnce(ctx.db, command.id, { refundId: refund.id }, async (tx) => {
        if (transfer && reverse > 0)
          await tx.execute(
            sql`UPDATE provider_transfers SET reversed_paise = reversed_paise + ${reverse}
                WHERE id = ${transfer.id}`,
          );
        await tx.execute(
          sql`UPDATE payment_intents SET refunded_paise = refunded_paise + ${amount},
                updated_at = now() WHERE id = ${intentId}`,
        );
        await tx.execute(
          sql`INSERT INTO provider_refunds (id, intent_id, booking_id, amount_paise)
              VALUES (${refund.id}, ${intentId}, ${bookingId}, ${amount}) ON CONFLICT DO NOTHING`,
        );
        await postRefund(tx, {
          bookingId,
          at,
          source,
          refundId: refund.id,
          commandId: command.id,
          back,
          artistPartFrom: transfer ? "artist_hold" : "held",
        });
        await recordMoneyEvent(tx, {
          key: `refund_paid:${refund.id}`,
          bookingId,
          kind: "refund_paid",
          amountPaise: amount,
          at,
          detail: { refundId: refund.id },
        });
      });
      return;
    }
    case "release_transfer": {
      const transfers = await queryRows<{ id: string }>(
        ctx.db,
        sql`SELECT id FROM provider_transfers WHERE booking_id = ${bookingId}
              AND released_at IS NULL AND amount_paise > reversed_paise ORDER BY created_at`,
      );
      for (const transfer of transfers) {
        await provider.setTransferHold({ transferId: transfer.id, onHold: false });
        fault("release.after-provider-call");
      }
      await completeOnce(
        ctx.db,
        command.id,
        { released: transfers.map((t) => t.id) },
        async (tx) => {
          await releaseInBooks(tx, ctx.env, {
            bookingId,
            at,
            source,
            transferIds: transfers.map((t) => t.id),
          });
        },
      );
      return;
    }
    case "reverse_transfer":
      throw new ProviderError("refused", "reverse_transfer is carried out within a refund");
  }
}

/**
 * The books of a release: transfers marked released, the booking's holds moved to the artist's
 * released account and the platform's commission and GST, the booking's payout time recorded,
 * and the commission invoiced (numbered without gaps).
 */
async function releaseInBooks(
  tx: Queryable,
  env: Env,
  input: { bookingId: string; at: Date; source: string; transferIds: string[] },
) {
  const { bookingId, at, source } = input;
  const [booking] = await queryRows<{ artistProfileId: string | null }>(
    tx,
    sql`SELECT artist_profile_id AS "artistProfileId" FROM bookings WHERE id = ${bookingId}`,
  );
  for (const id of input.transferIds)
    await tx.execute(
      sql`UPDATE provider_transfers SET on_hold = false, released_at = ${at.toISOString()}
          WHERE id = ${id}`,
    );
  const intents = await queryRows<{
    amount: string | number;
    refunded: string | number;
    commissionBps: number | null;
  }>(
    tx,
    sql`SELECT i.amount_paise AS amount, i.refunded_paise AS refunded,
          (a.json::jsonb -> 'agreement' -> 'offer' -> 'payments' ->> 'commissionBps')::int
            AS "commissionBps"
        FROM payment_intents i JOIN agreements a ON a.id = i.agreement_id
        WHERE i.booking_id = ${bookingId} AND i.status = 'captured'`,
  );
  const earned = { commissionPaise: 0, gstPaise: 0 };
  for (const intent of intents) {
    const kept = splitPayment(
      Number(intent.amount) - Number(intent.refunded),
      feeRatesFor(intent.commissionBps ?? env.commissionBps),
    );
    earned.commissionPaise += kept.commissionPaise;
    earned.gstPaise += kept.gstPaise;
  }
  const released = await postRelease(tx, {
    bookingId,
    at,
    source,
    artistProfileId: booking?.artistProfileId ?? "deleted",
    earned,
  });
  await tx.execute(
    sql`UPDATE bookings SET payout_released_at = ${at.toISOString()} WHERE id = ${bookingId}`,
  );
  if (released.commissionPaise > 0)
    await issueCommissionInvoice(tx, {
      bookingId,
      artistProfileId: booking?.artistProfileId ?? null,
      commissionPaise: released.commissionPaise,
      gstPaise: released.gstPaise,
      issuedAt: at,
      prefix: env.invoicePrefix,
    });
  if (released.artistPaise > 0)
    await recordMoneyEvent(tx, {
      key: `payout_released:${bookingId}`,
      bookingId,
      kind: "payout_released",
      amountPaise: released.artistPaise,
      at,
    });
}
