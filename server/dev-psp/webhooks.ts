import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { eq } from "drizzle-orm";
import { signRazorpayWebhook } from "~/features/payments/webhook-signature";
import { enqueueJob, type QueueHandler } from "~/lib/jobs.server";
import { addressRefusal } from "~/lib/safe-fetch.server";
import type { Queryable } from "~db/client";
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

export type PspEvent = {
  event: "payment.captured" | "payment.failed" | "order.paid" | "refund.processed";
  payload: Record<string, { entity: Record<string, unknown> }>;
};

export type WebhookTarget = { url: string; secret: string };

/**
 * Records one event in the caller's transaction and queues its delivery: the envelope Razorpay
 * sends, signed over the exact bytes that will be POSTed. Nothing is queued without a target.
 */
export async function queueWebhook(
  tx: Queryable,
  target: WebhookTarget | undefined,
  { event, payload }: PspEvent,
): Promise<void> {
  if (!target) return;
  const id = newPspId("evt");
  const body = JSON.stringify({
    entity: "event",
    account_id: DEV_PSP_ACCOUNT_ID,
    event,
    contains: Object.keys(payload),
    payload,
    created_at: Math.floor(Date.now() / 1000),
  });
  const signature = signRazorpayWebhook(Buffer.from(body, "utf8"), target.secret);
  await tx
    .insert(pspWebhookDeliveries)
    .values({ id, event, targetUrl: target.url, body, signature });
  await enqueueJob(tx, {
    queue: DEV_PSP_WEBHOOK_QUEUE,
    key: id,
    payload: { deliveryId: id },
    maxAttempts: 8,
  });
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
        if (!delivery || delivery.deliveredAt) return;
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
