/**
 * How Razorpay signs what it sends us (design money-and-terms §3.4, decision 052): a webhook is
 * hex(HMAC-SHA256(raw body bytes)) with the webhook secret; a Payment Link's return to our site is
 * hex(HMAC-SHA256(`plink_id|reference_id|status|payment_id`)) with the API key secret. Pure: no
 * database, no environment. Every check compares the decoded bytes with `timingSafeEqual`, and a
 * signature that is missing, not hex or of the wrong length is simply false, never a throw.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** Webhook bodies above this are refused before anything else (413): 1 MiB. */
export const MAX_WEBHOOK_BYTES = 1_048_576;

/** A SHA-256 HMAC is 32 bytes: 64 hex digits. */
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

export type WebhookSecrets = {
  current: string;
  /** The secret before the last rotation, while Razorpay may still retry events signed with it. */
  previous?: string | null;
};

export type PaymentLinkCallback = {
  paymentLinkId: string;
  referenceId: string;
  status: string;
  paymentId: string;
  signature: string | null;
};

function hmacSha256(secret: string, data: Uint8Array | string): Buffer {
  return createHmac("sha256", secret).update(data).digest();
}

/** The signature's bytes, or null when it is not exactly 64 hex digits. */
function decodeSignature(signature: string | null | undefined): Buffer | null {
  if (typeof signature !== "string" || !HEX_SHA256.test(signature)) return null;
  return Buffer.from(signature, "hex");
}

/** Constant time for equal lengths; the lengths here are fixed (32 bytes), so they reveal nothing. */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The `X-Razorpay-Signature` Razorpay would send for this body: what the test provider signs with. */
export function signRazorpayWebhook(rawBody: Uint8Array, secret: string): string {
  return hmacSha256(secret, rawBody).toString("hex");
}

/**
 * Whether `signatureHeader` is Razorpay's signature of exactly these bytes with the current secret
 * or, during a rotation, the previous one. An empty secret verifies nothing: anyone could sign with it.
 */
export function verifyRazorpayWebhook(
  rawBody: Uint8Array,
  signatureHeader: string | null,
  secrets: WebhookSecrets,
): boolean {
  const given = decodeSignature(signatureHeader);
  if (given === null) return false;
  const candidates = [secrets.current, secrets.previous].filter(
    (secret): secret is string => typeof secret === "string" && secret !== "",
  );
  let matched = false;
  // Every candidate is computed and compared, whichever matches: the time does not say which.
  for (const secret of candidates) {
    if (sameBytes(hmacSha256(secret, rawBody), given)) matched = true;
  }
  return matched;
}

/**
 * Whether a Payment Link's return (`razorpay_signature` in the query) was signed with our API key
 * secret. It only lets the page say "payment received, confirming…": state changes come from
 * webhooks and server-side fetches (design §3.4).
 */
export function verifyRazorpayPaymentLinkCallback(
  callback: PaymentLinkCallback,
  keySecret: string,
): boolean {
  const given = decodeSignature(callback.signature);
  if (given === null || keySecret === "") return false;
  const { paymentLinkId, referenceId, status, paymentId } = callback;
  const signed = `${paymentLinkId}|${referenceId}|${status}|${paymentId}`;
  return sameBytes(hmacSha256(keySecret, signed), given);
}
