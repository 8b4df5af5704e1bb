/**
 * The payment provider port (design money-and-terms §3.6): what GigLedger asks of a provider, in
 * our own words and types. No provider's wire shapes or SDK types cross it; the one adapter today
 * is the Razorpay client (`razorpay-client.server.ts`), which also drives the embedded fake at
 * `/dev/psp` when the app is local. Amounts are whole paise, times are Dates.
 *
 * Every call is safe to repeat with the same input, which is what lets the outbox retry after a
 * timeout without knowing whether the first attempt landed: Payment Links by their reference id,
 * refunds by the idempotency key, transfers and reversals by our `ref`, linked accounts by the
 * idempotency key, hold changes by their nature.
 */
import type { Paise } from "~/lib/money";
import type { PROVIDERS } from "~db/enums";

export type ProviderId = (typeof PROVIDERS)[number];

export type ProviderPaymentStatus = "created" | "authorized" | "captured" | "refunded" | "failed";
export type PaymentLinkStatus = "created" | "partially_paid" | "paid" | "cancelled" | "expired";
export type RefundStatus = "pending" | "processed" | "failed";
export type TransferStatus =
  | "created"
  | "pending"
  | "processed"
  | "failed"
  | "reversed"
  | "partially_reversed";
export type LinkedAccountStatus =
  | "created"
  | "activated"
  | "needs_clarification"
  | "under_review"
  | "suspended"
  | "rejected";

/** Short key-value text the provider keeps with an object (Razorpay: ≤ 15 keys, ≤ 256 chars each). */
export type ProviderNotes = Record<string, string>;

export type CreatePaymentLinkInput = {
  amount: Paise;
  description: string;
  /** Our payment intent's id: unique per link, so a retried create finds the first link. */
  referenceId: string;
  expireBy: Date;
  /** Where the payer's browser returns (GET, with the signed query `verifyPaymentLinkCallback` checks). */
  callbackUrl: string;
  customer: { name: string; email: string };
  notes?: ProviderNotes;
};

export type ProviderPaymentLink = {
  id: string;
  shortUrl: string;
  status: PaymentLinkStatus;
  referenceId: string | null;
  amount: Paise;
  amountPaid: Paise;
  /** The order behind the link, once the payer has opened it. */
  orderId: string | null;
  payments: { paymentId: string; amount: Paise; status: ProviderPaymentStatus }[];
};

export type ProviderPayment = {
  id: string;
  amount: Paise;
  status: ProviderPaymentStatus;
  orderId: string | null;
  amountRefunded: Paise;
  /** The provider's fee and the tax on it, both known once the payment is captured. */
  fee: Paise | null;
  tax: Paise | null;
  createdAt: Date;
};

export type RefundInput = {
  paymentId: string;
  amount: Paise;
  /**
   * The same key and the same input return the same refund; the same key with another input is
   * refused. 10 or more letters, digits, `-` or `_`.
   */
  idempotencyKey: string;
  notes?: ProviderNotes;
};

export type ProviderRefund = {
  id: string;
  paymentId: string;
  amount: Paise;
  status: RefundStatus;
  /** The bank's reference for the payer, once there is one. */
  arn: string | null;
  createdAt: Date;
};

export type HeldTransferInput = {
  paymentId: string;
  /** The artist's linked account (`acc_…`). */
  accountId: string;
  amount: Paise;
  /** Our reference for this transfer, unique: a retry finds the transfer made with it. */
  ref: string;
};

export type ProviderTransfer = {
  id: string;
  paymentId: string;
  accountId: string;
  amount: Paise;
  amountReversed: Paise;
  status: TransferStatus;
  onHold: boolean;
  onHoldUntil: Date | null;
  /** The `ref` it was made with, when GigLedger made it. */
  ref: string | null;
  createdAt: Date;
  processedAt: Date | null;
};

export type ReverseTransferInput = { transferId: string; amount: Paise; ref: string };

export type ProviderReversal = {
  id: string;
  transferId: string;
  amount: Paise;
  ref: string | null;
  createdAt: Date;
};

export type LinkedAccountInput = {
  email: string;
  phone?: string;
  legalName: string;
  pan?: string;
  /** Ours (the artist profile's id), kept by the provider with the account. */
  referenceId: string;
  idempotencyKey: string;
};

export type ProviderLinkedAccount = { id: string; status: LinkedAccountStatus };

/**
 * A payer's return from a Payment Link. `ok` only means the provider signed this query: it lets a
 * page say "Confirming your payment…", never confirm a booking (webhooks and fetches do that).
 */
export type PaymentLinkCallbackResult =
  | { ok: true; paymentLinkId: string; referenceId: string; status: string; paymentId: string }
  | { ok: false };

export interface PaymentProvider {
  readonly id: ProviderId;
  /** A retry with the same `referenceId` returns the link the first call made. */
  createPaymentLink(input: CreatePaymentLinkInput): Promise<ProviderPaymentLink>;
  fetchPaymentLink(id: string): Promise<ProviderPaymentLink>;
  /** Cancelling a link already cancelled returns it; a paid link is refused. */
  cancelPaymentLink(id: string): Promise<ProviderPaymentLink>;
  fetchPayment(id: string): Promise<ProviderPayment>;
  refund(input: RefundInput): Promise<ProviderRefund>;
  /** Moves `amount` of the payment to the artist's account, held until `setTransferHold` frees it. */
  createHeldTransfer(input: HeldTransferInput): Promise<ProviderTransfer>;
  setTransferHold(input: { transferId: string; onHold: boolean }): Promise<ProviderTransfer>;
  reverseTransfer(input: ReverseTransferInput): Promise<ProviderReversal>;
  createLinkedAccount(input: LinkedAccountInput): Promise<ProviderLinkedAccount>;
  verifyPaymentLinkCallback(query: URLSearchParams): PaymentLinkCallbackResult;
}

/**
 * A call to the provider that did not give an answer we can use. `retryable`: nothing final was
 * said (a timeout, a network error, 5xx, 408, 409, 429), so the same call may be sent again, which
 * the port makes safe. `refused`: the provider said no (other 4xx), or answered something we cannot
 * read; sending it again will not help. The message never holds a credential.
 */
export class ProviderError extends Error {
  override readonly name = "ProviderError";

  constructor(
    readonly kind: "retryable" | "refused",
    message: string,
    /** The HTTP status, or null when no answer came. */
    readonly status: number | null = null,
    /** The provider's error code (Razorpay: `BAD_REQUEST_ERROR`, …), when it sent one. */
    readonly code: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get isRetryable(): boolean {
    return this.kind === "retryable";
  }
}
