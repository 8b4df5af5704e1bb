import { randomBytes, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import { eq, sql } from "drizzle-orm";
import { signRazorpayWebhook } from "~/features/payments/webhook-signature";
import { enqueueJob, type QueueHandler } from "~/lib/jobs.server";
import { addressRefusal } from "~/lib/safe-fetch.server";
import { type Queryable, queryRows } from "~db/client";
import { pspWebhookDeliveries } from "~db/schema";

/** The queue that delivers the embedded provider's webhooks (decision 053). */
export const DEV_PSP_WEBHOOK_QUEUE = "dev-psp-webhook";

/** What Razorpay would put in `account_id`: the fake has one merchant account. */
export const DEV_PSP_ACCOUNT_ID = "acc_DevPsp0000001";

/**
 * Whether the fake may POST to this address: http(s) to localhost or a loopback address
 * (127.0.0.0/8, ::1 and its IPv4-mapped forms, judged by the same check `safeFetchText` uses).
 * No name is resolved: any other host is refused, so a webhook never leaves the machine.
 */
export function isLoopbackUrl(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (url.username || url.password) return false;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost") return true;
  if (isIP(host) === 0) return false;
  // Loopback is the one thing allowed only when asked for: refused without, accepted with.
  return addressRefusal(host, false) === "loopback" && addressRefusal(host, true) === null;
}

export function newPspId(prefix: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = randomBytes(14);
  let id = "";
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}_${id}`;
}

export type PspEventName =
  | "payment.captured"
  | "payment.failed"
  | "order.paid"
  | "refund.processed"
  | "payment_link.paid"
  | "payment_link.cancelled"
  | "payment_link.expired"
  | "transfer.processed";

export type PspEvent = {
  event: PspEventName;
  payload: Record<string, { entity: Record<string, unknown> }>;
};

/**
 * Deliveries held back by the test controls (`POST /_control/webhooks/hold`): while `held`, each
 * new delivery waits here, in the order it was queued, instead of becoming a job; `release`
 * makes them jobs in the order asked for. Kept in memory: a restart forgets the hold.
 */
export type WebhookHold = { held: boolean; waiting: { deliveryId: string; again: boolean }[] };

export type WebhookTarget = {
  url: string;
  secret: string;
  hold?: WebhookHold;
  /** The fake's time, for the envelope's `created_at`. */
  now?: () => Date;
  /** The last delivery's time: each is recorded at least 1 ms after it, so they sort as queued. */
  lastMs?: number;
};

/**
 * Records one event in the caller's transaction and queues its delivery: the envelope Razorpay
 * sends, signed over the exact bytes that will be POSTed. Nothing is queued without a target.
 * The delivery's id is the event's id (`x-razorpay-event-id`), the same on every redelivery.
 */
export async function queueWebhook(
  tx: Queryable,
  target: WebhookTarget | undefined,
  { event, payload }: PspEvent,
): Promise<void> {
  if (!target) return;
  const id = newPspId("evt");
  const now = new Date(
    Math.max((target.now?.() ?? new Date()).getTime(), (target.lastMs ?? 0) + 1),
  );
  target.lastMs = now.getTime();
  const body = JSON.stringify({
    entity: "event",
    account_id: DEV_PSP_ACCOUNT_ID,
    event,
    contains: Object.keys(payload),
    payload,
    created_at: Math.floor(now.getTime() / 1000),
  });
  const signature = signRazorpayWebhook(Buffer.from(body, "utf8"), target.secret);
  await tx
    .insert(pspWebhookDeliveries)
    .values({ id, event, targetUrl: target.url, body, signature, createdAt: now });
  await sendDelivery(tx, target, id, false);
}

/**
 * Makes a delivery a job, or keeps it waiting while the deliveries are held. `again` sends it
 * once more even if it was delivered (a redelivery: same body, same signature, same event id).
 */
export async function sendDelivery(
  tx: Queryable,
  target: WebhookTarget | undefined,
  deliveryId: string,
  again: boolean,
): Promise<void> {
  if (target?.hold?.held) {
    target.hold.waiting.push({ deliveryId, again });
    return;
  }
  await enqueueJob(tx, {
    queue: DEV_PSP_WEBHOOK_QUEUE,
    key: again ? `${deliveryId}:again:${randomUUID()}` : deliveryId,
    payload: { deliveryId, again },
    maxAttempts: 8,
  });
}

/**
 * Holds deliveries: the ones already waiting as jobs (not being sent right now) are taken off
 * the queue, in the order they would have run, and every new one waits until `releaseDeliveries`.
 */
export async function holdDeliveries(db: Queryable, hold: WebhookHold): Promise<number> {
  hold.held = true;
  const taken = await db.transaction(async (tx) => {
    const rows = await queryRows<{
      id: string;
      payload: { deliveryId?: unknown; again?: unknown };
    }>(
      tx,
      // In the order the provider made the events (not the jobs' due times, which a loaded
      // machine or a moved clock can shuffle).
      sql`SELECT j.id::text AS id, j.payload FROM jobs j
        LEFT JOIN psp_webhook_deliveries d ON d.id = j.payload ->> 'deliveryId'
        WHERE j.queue = ${DEV_PSP_WEBHOOK_QUEUE} AND j.failed_at IS NULL
          AND (j.locked_until IS NULL OR j.locked_until < now())
        ORDER BY d.created_at NULLS LAST, j.id FOR UPDATE OF j`,
    );
    if (rows.length > 0)
      await tx.execute(
        sql`DELETE FROM jobs WHERE id IN (${sql.join(
          rows.map((row) => sql`${row.id}::bigint`),
          sql`, `,
        )})`,
      );
    return rows;
  });
  for (const row of taken)
    hold.waiting.push({
      deliveryId: String(row.payload.deliveryId),
      again: row.payload.again === true,
    });
  return taken.length;
}

/** Ends the hold: the waiting deliveries become jobs, in the order they were queued or reversed. */
export async function releaseDeliveries(
  db: Queryable,
  target: WebhookTarget | undefined,
  hold: WebhookHold,
  order: "as-is" | "reverse",
): Promise<string[]> {
  hold.held = false;
  const waiting = hold.waiting.splice(0);
  if (order === "reverse") waiting.reverse();
  const released: string[] = [];
  await db.transaction(async (tx) => {
    for (const { deliveryId, again } of waiting) {
      // A delivery queued in a transaction that was then rolled back has no row: skip it.
      const [row] = await tx
        .select({ id: pspWebhookDeliveries.id })
        .from(pspWebhookDeliveries)
        .where(eq(pspWebhookDeliveries.id, deliveryId));
      if (!row) continue;
      await sendDelivery(tx, target, deliveryId, again);
      released.push(deliveryId);
    }
  });
  return released;
}

/**
 * POSTs each queued webhook to its loopback target, again (with the job runner's growing pause)
 * until it answers 2xx: at least once, like Razorpay. A repeat after a crash is allowed: the
 * receiver dedupes on `x-razorpay-event-id`.
 */
export function devPspJobs({ db }: { db: Queryable }): QueueHandler[] {
  return [
    {
      queue: DEV_PSP_WEBHOOK_QUEUE,
      leaseSeconds: 30,
      async outside(job) {
        const deliveryId = String(job.payload.deliveryId);
        const [delivery] = await db
          .select()
          .from(pspWebhookDeliveries)
          .where(eq(pspWebhookDeliveries.id, deliveryId));
        // A redelivery (`again`) is sent even if the event was delivered before.
        if (!delivery || (delivery.deliveredAt && job.payload.again !== true)) return;
        if (!isLoopbackUrl(delivery.targetUrl))
          throw new Error(
            `dev-psp refuses a webhook target off this machine: ${delivery.targetUrl}`,
          );
        await db
          .update(pspWebhookDeliveries)
          .set({ attempts: delivery.attempts + 1 })
          .where(eq(pspWebhookDeliveries.id, deliveryId));
        const response = await fetch(delivery.targetUrl, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "X-Razorpay-Signature": delivery.signature,
            "x-razorpay-event-id": delivery.id,
          },
          body: delivery.body,
          redirect: "manual",
          signal: AbortSignal.timeout(5000),
        });
        await response.body?.cancel();
        if (response.status < 200 || response.status > 299)
          throw new Error(`webhook ${delivery.id} answered ${response.status}`);
        await db
          .update(pspWebhookDeliveries)
          .set({ deliveredAt: new Date() })
          .where(eq(pspWebhookDeliveries.id, deliveryId));
      },
    },
  ];
}
