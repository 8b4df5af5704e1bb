/**
 * The Razorpay adapter of the payment provider port: a small typed client on Node's global
 * `fetch`, with no SDK (design money-and-terms §3.7: `razorpay` 2.9.8 hard-codes its host, drops
 * the refund idempotency header and compares signatures with `===`). Pointed at
 * `https://api.razorpay.com` it is the live adapter; pointed at `${appOrigin}/dev/psp` it drives
 * the embedded fake, so every test runs this same code.
 *
 * Each request has Basic auth, a JSON body, a timeout and no redirects followed; each answer is
 * parsed with the schemas in `razorpay-schemas.ts` and turned into the port's types. Failures are
 * `ProviderError`s whose messages never hold the key secret.
 */
import type { z } from "zod";
import type { Paise } from "~/lib/money";
import {
  type CreatePaymentLinkInput,
  type HeldTransferInput,
  type LinkedAccountInput,
  type PaymentLinkCallbackResult,
  type PaymentProvider,
  ProviderError,
  type ProviderLinkedAccount,
  type ProviderPayment,
  type ProviderPaymentLink,
  type ProviderRefund,
  type ProviderReversal,
  type ProviderTransfer,
  type RefundInput,
  type ReverseTransferInput,
} from "./payment-provider";
import {
  RAZORPAY_ID,
  RazorpayErrorSchema,
  RazorpayLinkedAccountSchema,
  type RazorpayNotes,
  type RazorpayPaymentLink,
  RazorpayPaymentLinkListSchema,
  RazorpayPaymentLinkSchema,
  RazorpayPaymentSchema,
  RazorpayRefundSchema,
  type RazorpayReversal,
  RazorpayReversalCollectionSchema,
  RazorpayReversalSchema,
  type RazorpayTransfer,
  RazorpayTransferCollectionSchema,
  RazorpayTransferSchema,
} from "./razorpay-schemas";
import { verifyRazorpayPaymentLinkCallback } from "./webhook-signature";

export const RAZORPAY_API_BASE = "https://api.razorpay.com";
export const RAZORPAY_TIMEOUT_MS = 10_000;

export type RazorpayClientOptions = {
  keyId: string;
  keySecret: string;
  /** `https://api.razorpay.com` unless given; the embedded fake is `${appOrigin}/dev/psp`. */
  baseUrl?: string;
  /** For the whole exchange, the answer's body included. */
  timeoutMs?: number;
  /** Used instead of the global `fetch` (the demo seed reaches the embedded provider in-process). */
  fetch?: typeof fetch;
};

/** Razorpay's rule for `X-Refund-Idempotency`; the linked-account key follows it too. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{10,255}$/;
/** Where our own reference to a transfer or a reversal is kept on the provider's object. */
const REF_NOTE = "gl_ref";
/** Statuses after which the same request may be sent again (see `ProviderError`). */
const RETRYABLE_STATUSES = new Set([408, 409, 429]);

type Method = "GET" | "POST" | "PATCH";
type RequestOptions = { body?: unknown; headers?: Record<string, string> };

/** A call that cannot be right whatever the provider would say: it is never sent. */
function refuseInput(message: string): ProviderError {
  return new ProviderError("refused", `Razorpay: ${message}`);
}

/** An id placed in a request path: only Razorpay's own id characters, so no `..` or `/` gets in. */
function pathId(id: string, what: string): string {
  if (typeof id !== "string" || !RAZORPAY_ID.test(id)) {
    throw refuseInput(`${what} ${JSON.stringify(String(id).slice(0, 80))} is not a Razorpay id`);
  }
  return id;
}

function positivePaise(amount: Paise, what: string): Paise {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw refuseInput(`${what} must be a positive whole number of paise, not ${amount}`);
  }
  return amount;
}

function idempotencyKey(key: string): string {
  if (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key)) {
    throw refuseInput("an idempotency key is 10 to 255 letters, digits, '-' or '_'");
  }
  return key;
}

function nonEmpty(value: string, what: string): string {
  if (typeof value !== "string" || value.trim() === "") throw refuseInput(`${what} is empty`);
  return value;
}

/** Our reference, kept in a note: Razorpay keeps at most 256 characters of each. */
function refNote(ref: string, what: string): string {
  if (nonEmpty(ref, what).length > 256) throw refuseInput(`${what} is over 256 characters`);
  return ref;
}

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
const fromUnix = (seconds: number) => new Date(seconds * 1000);
const fromUnixOrNull = (seconds: number | null | undefined) =>
  seconds === null || seconds === undefined ? null : fromUnix(seconds);

function refOf(notes: RazorpayNotes | null | undefined): string | null {
  const ref = notes?.[REF_NOTE];
  return typeof ref === "string" ? ref : null;
}

function toPaymentLink(link: RazorpayPaymentLink): ProviderPaymentLink {
  return {
    id: link.id,
    shortUrl: link.short_url,
    status: link.status,
    referenceId: link.reference_id ?? null,
    amount: link.amount,
    amountPaid: link.amount_paid,
    orderId: link.order_id ?? null,
    payments: (link.payments ?? []).map((p) => ({
      paymentId: p.payment_id,
      amount: p.amount,
      status: p.status,
    })),
  };
}

function toTransfer(transfer: RazorpayTransfer): ProviderTransfer {
  return {
    id: transfer.id,
    paymentId: transfer.source,
    accountId: transfer.recipient,
    amount: transfer.amount,
    amountReversed: transfer.amount_reversed,
    status: transfer.status,
    onHold: transfer.on_hold,
    onHoldUntil: fromUnixOrNull(transfer.on_hold_until),
    ref: refOf(transfer.notes),
    createdAt: fromUnix(transfer.created_at),
    processedAt: fromUnixOrNull(transfer.processed_at),
  };
}

function toReversal(reversal: RazorpayReversal): ProviderReversal {
  return {
    id: reversal.id,
    transferId: reversal.transfer_id,
    amount: reversal.amount,
    ref: refOf(reversal.notes),
    createdAt: fromUnix(reversal.created_at),
  };
}

/** The API's root without a trailing slash; refuses anything but a plain http(s) address. */
function apiRoot(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError("The Razorpay base URL is not an address");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new TypeError("The Razorpay base URL must be http or https");
  if (url.username || url.password || url.search || url.hash)
    throw new TypeError("The Razorpay base URL takes no credentials, query or fragment");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

export function createRazorpayClient(options: RazorpayClientOptions): PaymentProvider {
  const { keyId, keySecret } = options;
  if (!keyId || !keySecret) throw new TypeError("The Razorpay client needs a key id and secret");
  const root = apiRoot(options.baseUrl ?? RAZORPAY_API_BASE);
  const timeoutMs = options.timeoutMs ?? RAZORPAY_TIMEOUT_MS;
  // Looked up at each call, so a global fetch swapped in later is the one used.
  const send: typeof fetch = (input, init) => (options.fetch ?? fetch)(input, init);
  const credentials = Buffer.from(`${keyId}:${keySecret}`).toString("base64");

  /** Whatever came from outside, with the secret and the encoded credentials blanked out. */
  const clean = (text: string) =>
    text.replaceAll(keySecret, "[redacted]").replaceAll(credentials, "[redacted]").slice(0, 500);

  async function request<T extends z.ZodType>(
    method: Method,
    path: string,
    schema: T,
    { body, headers = {} }: RequestOptions = {},
  ): Promise<z.output<T>> {
    const operation = `Razorpay ${method} ${path.split("?")[0]}`;
    let status: number;
    let text: string;
    try {
      const response = await send(`${root}${path}`, {
        method,
        headers: {
          Authorization: `Basic ${credentials}`,
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        // A redirect would carry our credentials elsewhere; Razorpay's API never sends one.
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && error.name === "TimeoutError";
      throw new ProviderError(
        "retryable",
        timedOut
          ? `${operation}: no answer within ${timeoutMs} ms`
          : `${operation}: could not be reached (${clean(error instanceof Error ? error.message : String(error))})`,
        null,
        null,
        { cause: error },
      );
    }

    if (status >= 300 && status < 400) {
      throw new ProviderError(
        "refused",
        `${operation}: answered with a redirect (${status}), which is not followed`,
        status,
      );
    }
    if (status < 200 || status >= 300) {
      const refusal = RazorpayErrorSchema.safeParse(parseJson(text));
      const code = refusal.success ? refusal.data.error.code : null;
      const description =
        (refusal.success && refusal.data.error.description) || `HTTP ${status} without a reason`;
      const kind = status >= 500 || RETRYABLE_STATUSES.has(status) ? "retryable" : "refused";
      throw new ProviderError(
        kind,
        `${operation}: ${status} ${clean(description)}`,
        status,
        code && clean(code),
      );
    }
    const parsed = schema.safeParse(parseJson(text));
    if (!parsed.success) {
      // Paths and codes only: the values may be personal data.
      const where = parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.code}`)
        .join("; ");
      throw new ProviderError("refused", `${operation}: unexpected answer (${where})`, status);
    }
    return parsed.data;
  }

  async function findLinkByReference(referenceId: string) {
    const query = new URLSearchParams({ reference_id: referenceId });
    const list = await request("GET", `/v1/payment_links?${query}`, RazorpayPaymentLinkListSchema);
    return list.payment_links.find((link) => link.reference_id === referenceId) ?? null;
  }

  async function fetchPaymentLink(id: string): Promise<ProviderPaymentLink> {
    const linkId = pathId(id, "payment link");
    return toPaymentLink(
      await request("GET", `/v1/payment_links/${linkId}`, RazorpayPaymentLinkSchema),
    );
  }

  return {
    id: "razorpay",

    async createPaymentLink(input: CreatePaymentLinkInput) {
      const amount = positivePaise(input.amount, "A payment link's amount");
      const referenceId = nonEmpty(input.referenceId, "A payment link's reference id");
      // Razorpay's limit; an intent's uuid (36) fits.
      if (referenceId.length > 40) throw refuseInput("a payment link's reference id is over 40");
      const body = {
        amount,
        currency: "INR",
        accept_partial: false,
        expire_by: unixSeconds(input.expireBy),
        reference_id: referenceId,
        description: input.description,
        customer: { name: input.customer.name, email: input.customer.email },
        callback_url: input.callbackUrl,
        callback_method: "get",
        notes: input.notes ?? {},
      };
      try {
        return toPaymentLink(
          await request("POST", "/v1/payment_links", RazorpayPaymentLinkSchema, { body }),
        );
      } catch (error) {
        // Razorpay refuses a second link with one reference id: a retry after a lost answer
        // gets the link the first attempt made, whatever words the refusal uses.
        if (!(error instanceof ProviderError) || error.status !== 400) throw error;
        const existing = await findLinkByReference(referenceId);
        if (!existing) throw error;
        if (existing.amount !== amount) {
          throw new ProviderError(
            "refused",
            `Razorpay: reference ${referenceId} already has a link for ${existing.amount} paise, not ${amount}`,
            400,
            error.code,
          );
        }
        return toPaymentLink(existing);
      }
    },

    fetchPaymentLink,

    async cancelPaymentLink(id: string) {
      const linkId = pathId(id, "payment link");
      try {
        return toPaymentLink(
          await request("POST", `/v1/payment_links/${linkId}/cancel`, RazorpayPaymentLinkSchema),
        );
      } catch (error) {
        // A retry of a cancellation that landed: Razorpay refuses to cancel twice.
        if (!(error instanceof ProviderError) || error.status !== 400) throw error;
        const link = await fetchPaymentLink(linkId);
        if (link.status !== "cancelled") throw error;
        return link;
      }
    },

    async fetchPayment(id: string): Promise<ProviderPayment> {
      const payment = await request(
        "GET",
        `/v1/payments/${pathId(id, "payment")}`,
        RazorpayPaymentSchema,
      );
      return {
        id: payment.id,
        amount: payment.amount,
        status: payment.status,
        orderId: payment.order_id ?? null,
        amountRefunded: payment.amount_refunded,
        fee: payment.fee ?? null,
        tax: payment.tax ?? null,
        createdAt: fromUnix(payment.created_at),
      };
    },

    async refund(input: RefundInput): Promise<ProviderRefund> {
      const paymentId = pathId(input.paymentId, "payment");
      // The same key must come with the same body: build it the same way every time.
      const body = {
        amount: positivePaise(input.amount, "A refund"),
        speed: "normal",
        notes: input.notes ?? {},
      };
      const refund = await request(
        "POST",
        `/v1/payments/${paymentId}/refund`,
        RazorpayRefundSchema,
        { body, headers: { "X-Refund-Idempotency": idempotencyKey(input.idempotencyKey) } },
      );
      return {
        id: refund.id,
        paymentId: refund.payment_id,
        amount: refund.amount,
        status: refund.status,
        arn: refund.acquirer_data?.arn ?? null,
        createdAt: fromUnix(refund.created_at),
      };
    },

    async createHeldTransfer(input: HeldTransferInput) {
      const paymentId = pathId(input.paymentId, "payment");
      const account = pathId(input.accountId, "linked account");
      const amount = positivePaise(input.amount, "A transfer");
      const ref = refNote(input.ref, "A transfer's ref");
      // Transfers take no idempotency key: look for the one a lost answer hid before making one.
      // Check-then-create is safe against retries, not against two calls at once: the caller
      // runs one command at a time.
      const path = `/v1/payments/${paymentId}/transfers`;
      const made = await request("GET", path, RazorpayTransferCollectionSchema);
      const existing = made.items.find((transfer) => refOf(transfer.notes) === ref);
      if (existing) {
        if (existing.recipient !== account || existing.amount !== amount) {
          throw new ProviderError(
            "refused",
            `Razorpay: transfer ${existing.id} was made with ref ${ref} for another account or amount`,
          );
        }
        return toTransfer(existing);
      }
      const body = {
        transfers: [
          { account, amount, currency: "INR", on_hold: true, notes: { [REF_NOTE]: ref } },
        ],
      };
      const created = await request("POST", path, RazorpayTransferCollectionSchema, { body });
      const transfer = created.items.find((item) => refOf(item.notes) === ref) ?? created.items[0];
      if (!transfer) {
        throw new ProviderError("refused", `Razorpay POST ${path}: answered no transfer`, null);
      }
      return toTransfer(transfer);
    },

    async setTransferHold({ transferId, onHold }) {
      const id = pathId(transferId, "transfer");
      return toTransfer(
        await request("PATCH", `/v1/transfers/${id}`, RazorpayTransferSchema, {
          body: { on_hold: onHold ? 1 : 0 },
        }),
      );
    },

    async reverseTransfer(input: ReverseTransferInput) {
      const path = `/v1/transfers/${pathId(input.transferId, "transfer")}/reversals`;
      const amount = positivePaise(input.amount, "A reversal");
      const ref = refNote(input.ref, "A reversal's ref");
      const made = await request("GET", path, RazorpayReversalCollectionSchema);
      const existing = made.items.find((reversal) => refOf(reversal.notes) === ref);
      if (existing) {
        if (existing.amount !== amount) {
          throw new ProviderError(
            "refused",
            `Razorpay: reversal ${existing.id} was made with ref ${ref} for ${existing.amount} paise, not ${amount}`,
          );
        }
        return toReversal(existing);
      }
      const body = { amount, notes: { [REF_NOTE]: ref } };
      return toReversal(await request("POST", path, RazorpayReversalSchema, { body }));
    },

    async createLinkedAccount(input: LinkedAccountInput): Promise<ProviderLinkedAccount> {
      const legalName = nonEmpty(input.legalName, "A linked account's legal name");
      const body = {
        email: nonEmpty(input.email, "A linked account's email"),
        ...(input.phone ? { phone: input.phone } : {}),
        type: "route",
        reference_id: nonEmpty(input.referenceId, "A linked account's reference id"),
        legal_business_name: legalName,
        business_type: "individual",
        contact_name: legalName,
        ...(input.pan ? { legal_info: { pan: input.pan } } : {}),
      };
      const account = await request("POST", "/v2/accounts", RazorpayLinkedAccountSchema, {
        body,
        headers: { "Idempotency-Key": idempotencyKey(input.idempotencyKey) },
      });
      return { id: account.id, status: account.status };
    },

    verifyPaymentLinkCallback(query: URLSearchParams): PaymentLinkCallbackResult {
      const one = (name: string) => {
        const values = query.getAll(name);
        // A repeated parameter could be read two ways: trust neither.
        return values.length === 1 && values[0] ? values[0] : null;
      };
      const paymentLinkId = one("razorpay_payment_link_id");
      const referenceId = one("razorpay_payment_link_reference_id");
      const status = one("razorpay_payment_link_status");
      const paymentId = one("razorpay_payment_id");
      const signature = one("razorpay_signature");
      if (!paymentLinkId || !referenceId || !status || !paymentId || !signature)
        return { ok: false };
      const callback = { paymentLinkId, referenceId, status, paymentId, signature };
      if (!verifyRazorpayPaymentLinkCallback(callback, keySecret)) return { ok: false };
      return { ok: true, paymentLinkId, referenceId, status, paymentId };
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
