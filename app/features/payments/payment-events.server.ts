// Provider events in, applied once (docs/decisions/055): the webhook stores each signed event in
// the inbox and answers at once; a job applies it in its own transaction. The reconciler feeds
// what it learns by asking the provider through the same `applyCapture`.

import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Clock } from "~/lib/clock.server";
import type { Env } from "~/lib/env.server";
import { jobDropSql, type QueueHandler } from "~/lib/jobs.server";
import type { Logger } from "~/lib/logger.server";
import { type Database, type Queryable, queryRows } from "~db/client";
import { applyCapture, type PaymentHooks } from "./booking-payments.server";
import { type FaultPoint, faultPointsOf, noFaults } from "./faults.server";
import { recordMoneyEvent } from "./money-events.server";
import { parseRazorpayEvent, recordProviderEvent } from "./provider-events.server";
import { MAX_WEBHOOK_BYTES, verifyRazorpayWebhook } from "./webhook-signature";

export const EVENTS_QUEUE = "payments.events";

/** How long an event applied at once leaves its safety-net job waiting. */
const SAFETY_NET_SECONDS = 15;

export type WebhookAnswer = { status: 200 | 400 | 413; body: string };

/**
 * A POST to /webhooks/razorpay: refused with 413 when too large and 400 when its signature (over
 * the raw bytes, with the current or the previous secret) does not hold or it is not an event;
 * otherwise stored once per event id and answered 200, duplicates included. `fault` is the crash
 * tests' seam ("webhook.after-inbox-insert": the row is committed, the provider not yet answered).
 */
export async function receiveRazorpayWebhook(
  db: Database,
  env: Pick<Env, "payments">,
  clock: Clock,
  raw: Uint8Array,
  headers: Headers,
  fault: FaultPoint = noFaults,
  /**
   * Given, a new event is applied at once, in its own transaction after the inbox's: the money
   * shows without waiting for the job, which stays queued as the safety net (it finds the event
   * processed, or applies it if this attempt failed).
   */
  applyNow?: { hooks: PaymentHooks; logger: Logger; stored?: RecentEvents },
): Promise<WebhookAnswer> {
  const config = env.payments;
  if (config.mode === "off") return { status: 400, body: "Payments are off." };
  if (raw.byteLength > MAX_WEBHOOK_BYTES) return { status: 413, body: "The body is too large." };
  const signed = verifyRazorpayWebhook(raw, headers.get("x-razorpay-signature"), {
    current: config.webhookSecret,
    previous: config.previousWebhookSecret,
  });
  if (!signed) return { status: 400, body: "The signature does not match." };
  const eventId = headers.get("x-razorpay-event-id")?.trim() ?? "";
  if (eventId === "" || eventId.length > 100)
    return { status: 400, body: "The event id is missing." };
  // A redelivery of an event this instance stored already (signed, so it is the provider's):
  // answered at once, without the database.
  if (applyNow?.stored?.has(eventId)) return { status: 200, body: "ok" };
  const rawBody = Buffer.from(raw).toString("utf8");
  const event = parseRazorpayEvent(rawBody);
  if (!event || rawBody.includes("\u0000"))
    return { status: 400, body: "The body is not an event." };
  // Applied at once below, the job is only the safety net: due a little later, it finds the event
  // processed and is dropped with it; otherwise it is due now and wakes the runners.
  const stored = await recordProviderEvent(
    db,
    {
      provider: "razorpay",
      eventId,
      eventType: event.eventType.slice(0, 100),
      rawBody,
      signatureOk: true,
      receivedAt: clock.now(),
    },
    {
      queue: EVENTS_QUEUE,
      runAt: applyNow ? new Date(clock.now().getTime() + SAFETY_NET_SECONDS * 1000) : undefined,
    },
  );
  fault("webhook.after-inbox-insert");
  applyNow?.stored?.add(eventId);
  if (applyNow && !stored.duplicate) {
    try {
      await db.transaction(async (tx) => {
        // The row was stored by this request a moment ago: no need to read it back or lock it
        // first; the closing update applies only to a row still unprocessed (else it rolls back).
        const at = clock.now();
        const outcome = await applyEvent(
          tx,
          applyNow.hooks,
          { id: stored.id, eventId, rawBody, receivedAt: at },
          at,
        );
        await closeEvent(tx, stored.id, outcome, at, { dropJob: true });
        if (outcome === "applied" || outcome === "refunded") fault("events.before-commit");
      });
    } catch (error) {
      // Stored and queued: the events job applies it, with its retries.
      applyNow.logger.warn(
        { err: error instanceof Error ? error.message : String(error), eventId },
        "provider event left to the events job",
      );
    }
  }
  return { status: 200, body: "ok" };
}

const Entity = <T extends z.ZodRawShape>(shape: T) => z.object({ entity: z.object(shape) });
const PaymentLinkPaid = z.object({
  payment_link: Entity({ id: z.string(), reference_id: z.string().uuid() }),
  payment: Entity({ id: z.string().min(1).max(100), amount: z.number().int(), status: z.string() }),
});
const PaymentFailed = z.object({
  payment: Entity({
    id: z.string(),
    amount: z.number().int(),
    notes: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]).optional(),
  }),
});

type Outcome = "applied" | "ignored" | "orphan" | "mismatch" | "refunded";

/** What one stored event does, in the caller's transaction. */
async function applyEvent(
  tx: Queryable,
  hooks: PaymentHooks,
  event: { id: string; eventId: string; rawBody: string; receivedAt: Date },
  at: Date,
): Promise<Outcome> {
  const parsed = parseRazorpayEvent(event.rawBody);
  if (!parsed) return "ignored";
  const source = `event:${event.eventId}`;
  switch (parsed.eventType) {
    case "payment_link.paid": {
      const body = PaymentLinkPaid.safeParse(parsed.payload);
      if (!body.success || body.data.payment.entity.status !== "captured") return "ignored";
      return applyCapture(tx, hooks, {
        intentId: body.data.payment_link.entity.reference_id,
        paymentId: body.data.payment.entity.id,
        amountPaise: body.data.payment.entity.amount,
        at,
        source,
      });
    }
    case "payment.failed": {
      const body = PaymentFailed.safeParse(parsed.payload);
      const notes = body.success ? body.data.payment.entity.notes : undefined;
      const intentId =
        notes && !Array.isArray(notes) && typeof notes.gl_intent === "string"
          ? notes.gl_intent
          : null;
      if (!body.success || !intentId || !z.string().uuid().safeParse(intentId).success)
        return "ignored";
      const [intent] = await queryRows<{ bookingId: string }>(
        tx,
        sql`SELECT booking_id AS "bookingId" FROM payment_intents WHERE id = ${intentId}`,
      );
      if (!intent) return "orphan";
      await recordMoneyEvent(tx, {
        key: `payment_failed:${body.data.payment.entity.id}`,
        bookingId: intent.bookingId,
        kind: "payment_failed",
        amountPaise: body.data.payment.entity.amount,
        at,
      });
      return "applied";
    }
    default:
      // payment.captured and order.paid repeat payment_link.paid; refunds and transfers are
      // recorded from the answers to our own calls.
      return "ignored";
  }
}

type EventsCtx = { db: Database; env: Env; logger: Logger; clock: Clock };

/**
 * The events queue. `fault` is the crash tests' seam ("events.before-commit": an event changed
 * our books, its transaction has not committed); by default the environment's.
 */
export function eventJobs(
  ctx: EventsCtx,
  hooks: PaymentHooks,
  fault: FaultPoint = faultPointsOf(ctx.env),
): QueueHandler[] {
  return [
    {
      queue: EVENTS_QUEUE,
      leaseSeconds: 60,
      batch: 1,
      inTransaction: async (tx, jobs) => {
        for (const job of jobs) {
          const outcome = await processStoredEvent(tx, hooks, job.key, ctx.clock.now());
          if (outcome === "applied" || outcome === "refunded") fault("events.before-commit");
        }
      },
    },
  ];
}

/**
 * Applies one stored event if it is not yet processed, and records what became of it. With
 * `dropJob` (the webhook applying it at once), its waiting safety-net job goes in the same commit.
 */
export async function processStoredEvent(
  tx: Queryable,
  hooks: PaymentHooks,
  rowId: string,
  at: Date,
  options: { dropJob?: boolean } = {},
): Promise<Outcome | null> {
  const [event] = await queryRows<{
    id: string;
    eventId: string;
    rawBody: string;
    receivedAt: Date;
  }>(
    tx,
    sql`SELECT id, event_id AS "eventId", raw_body AS "rawBody", received_at AS "receivedAt"
        FROM provider_events WHERE id = ${rowId} AND processed_at IS NULL FOR UPDATE`,
  );
  if (!event) return null;
  const outcome = await applyEvent(tx, hooks, event, at);
  await closeEvent(tx, event.id, outcome, at, options);
  return outcome;
}

/** Records what became of an event; throws (rolling back) if another run processed it first. */
async function closeEvent(
  tx: Queryable,
  rowId: string,
  outcome: Outcome,
  at: Date,
  options: { dropJob?: boolean },
) {
  const dropped = options.dropJob
    ? sql`WITH dropped AS (${jobDropSql(EVENTS_QUEUE, rowId)}) `
    : sql``;
  const closed = await queryRows<{ id: string }>(
    tx,
    sql`${dropped}UPDATE provider_events SET processed_at = ${at.toISOString()},
          outcome = ${outcome}, attempts = attempts + 1
        WHERE id = ${rowId} AND processed_at IS NULL RETURNING id`,
  );
  if (closed.length === 0) throw new Error(`provider event ${rowId} was processed meanwhile`);
}

/**
 * The event ids an instance stored lately (a bounded set, oldest forgotten first): a provider's
 * redelivery to the same instance is answered without the database.
 */
export class RecentEvents {
  private readonly ids = new Set<string>();
  constructor(private readonly size = 10_000) {}
  has(id: string) {
    return this.ids.has(id);
  }
  add(id: string) {
    this.ids.add(id);
    if (this.ids.size > this.size) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
  }
}
