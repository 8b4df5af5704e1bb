/**
 * The inbox of provider events (design money-and-terms §3.9, decision 052): each event a provider
 * delivered is stored once per (provider, event id), with its body exactly as received, before
 * anything acts on it. Razorpay delivers at least once and retries for 24 hours, so the same event
 * arrives again and again; only its first delivery adds a row. Processing comes later, from the
 * rows whose `processed_at` is null.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { type JobInput, jobInsertSql, jobWakeSql } from "~/lib/jobs.server";
import { type Queryable, queryRows } from "~db/client";
import type { PROVIDERS } from "~db/enums";
import { providerEvents } from "~db/schema";
import { MAX_WEBHOOK_BYTES } from "./webhook-signature";

export type Provider = (typeof PROVIDERS)[number];

export type ProviderEventDelivery = {
  provider: Provider;
  /** The provider's id of the event (Razorpay: the `x-razorpay-event-id` header). */
  eventId: string;
  eventType: string;
  /** The body exactly as received, decoded as UTF-8: the bytes its signature covers. */
  rawBody: string;
  signatureOk: boolean;
  receivedAt: Date;
};

/**
 * Stores one delivery and returns its row's id; a delivery of an event already stored (same
 * provider and event id) stores nothing and returns the first row's id with `duplicate: true`.
 * Safe under concurrent deliveries of one event: exactly one of them adds the row. With `job`,
 * the same statement adds that job, keyed by the new row's id, for a new row only (and wakes the
 * runners when it is due now): one round trip, no transaction of its own.
 */
export async function recordProviderEvent(
  db: Queryable,
  delivery: ProviderEventDelivery,
  job?: Omit<JobInput, "key">,
): Promise<{ id: string; duplicate: boolean }> {
  const { provider, eventId, eventType, rawBody, signatureOk, receivedAt } = delivery;
  if (eventId.trim() === "") throw new TypeError(`A ${provider} event needs its event id`);
  if (eventType.trim() === "") throw new TypeError(`${provider} event ${eventId} has no type`);
  // PostgreSQL's text holds no NUL character; a body with one is no provider's JSON.
  if (rawBody.includes("\u0000")) {
    throw new TypeError(`${provider} event ${eventId}: the body holds a NUL character`);
  }
  const id = randomUUID();
  const queued = job ? sql`, queued AS (${jobInsertSql({ ...job, key: id }, sql`stored`)})` : sql``;
  const wake = job && !job.runAt ? sql`, ${jobWakeSql(job.queue)}` : sql``;
  const [inserted] = await queryRows<{ id: string }>(
    db,
    sql`WITH stored AS (
          INSERT INTO provider_events (id, provider, event_id, event_type, raw_body, signature_ok,
            received_at)
          VALUES (${id}, ${provider}, ${eventId}, ${eventType}, ${rawBody}, ${signatureOk},
            ${receivedAt.toISOString()})
          ON CONFLICT (provider, event_id) DO NOTHING RETURNING id)${queued}
        SELECT id::text AS id${wake} FROM stored`,
  );
  if (inserted) return { id: inserted.id, duplicate: false };
  // The conflict waited for the first delivery's transaction to commit: its row is visible now.
  const [first] = await db
    .select({ id: providerEvents.id })
    .from(providerEvents)
    .where(and(eq(providerEvents.provider, provider), eq(providerEvents.eventId, eventId)));
  if (!first) throw new Error(`${provider} event ${eventId} conflicted but cannot be found`);
  return { id: first.id, duplicate: true };
}

/** What a Razorpay webhook body must hold; everything else in it is kept as `payload`. */
const RazorpayEventSchema = z.object({
  event: z.string().min(1),
  created_at: z.unknown().optional(),
  payload: z.unknown().optional(),
});

export type RazorpayEvent = {
  /** `payment.captured`, `refund.processed`, … (the body's `event`). */
  eventType: string;
  /** The body's `created_at` (Unix seconds), or null when it is missing or not such a number. */
  createdAt: number | null;
  /** The body's `payload`, unchecked: each event's handler validates its own part. */
  payload: unknown;
};

/**
 * Reads a Razorpay webhook body: null for anything that is not a JSON object with a non-empty
 * string `event`, or that is larger than a webhook may be. Never throws, whatever the input.
 * (The event id is not in the body: Razorpay sends it in the `x-razorpay-event-id` header.)
 */
export function parseRazorpayEvent(rawBody: string): RazorpayEvent | null {
  if (typeof rawBody !== "string" || Buffer.byteLength(rawBody, "utf8") > MAX_WEBHOOK_BYTES) {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return null;
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return null;
  const parsed = RazorpayEventSchema.safeParse(json);
  if (!parsed.success) return null;
  const { event, created_at: createdAt, payload } = parsed.data;
  return {
    eventType: event,
    createdAt:
      typeof createdAt === "number" && Number.isSafeInteger(createdAt) && createdAt >= 0
        ? createdAt
        : null,
    payload: payload ?? null,
  };
}
