/**
 * Razorpay's answers as they arrive on the wire (snake_case, amounts in integer paise, times in
 * Unix seconds), one Zod schema per entity GigLedger reads (design money-and-terms §3.3, §3.6).
 * The Razorpay client parses every response with these, and the embedded provider's tests parse
 * its own responses with the same schemas: when the fake and the client drift apart, a test
 * fails. Only the fields GigLedger uses are checked; any others are let through and dropped.
 */
import { z } from "zod";

/** An id Razorpay made (`pay_…`, `plink_…`, `trf_…`): also what may stand in a request path. */
export const RAZORPAY_ID = /^[A-Za-z0-9_]{1,64}$/;

const AmountSchema = z.number().int().nonnegative();
const UnixSecondsSchema = z.number().int().nonnegative();
const IdSchema = z.string().regex(RAZORPAY_ID);

/**
 * `notes`: up to 15 keys of short text. Razorpay writes empty notes as `[]` (a PHP empty array),
 * so an empty array is read as no notes.
 */
export const RazorpayNotesSchema = z.union([
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  z
    .array(z.unknown())
    .max(0)
    .transform((): Record<string, string | number | boolean | null> => ({})),
]);
export type RazorpayNotes = z.infer<typeof RazorpayNotesSchema>;

/** Razorpay's refusal body: `{"error":{"code":"BAD_REQUEST_ERROR","description":…}}`. */
export const RazorpayErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    description: z.string().nullish(),
    field: z.string().nullish(),
    reason: z.string().nullish(),
  }),
});
export type RazorpayError = z.infer<typeof RazorpayErrorSchema>;

export const PAYMENT_STATUSES = [
  "created",
  "authorized",
  "captured",
  "refunded",
  "failed",
] as const;

export const RazorpayPaymentSchema = z.object({
  id: IdSchema,
  entity: z.literal("payment"),
  amount: AmountSchema,
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  order_id: IdSchema.nullish(),
  amount_refunded: AmountSchema,
  // Known only once the payment is captured.
  fee: AmountSchema.nullish(),
  tax: AmountSchema.nullish(),
  created_at: UnixSecondsSchema,
});
export type RazorpayPayment = z.infer<typeof RazorpayPaymentSchema>;

/** An order: GigLedger makes none itself (a Payment Link makes its own), but the fake serves them. */
export const RazorpayOrderSchema = z.object({
  id: IdSchema,
  entity: z.literal("order"),
  amount: AmountSchema,
  amount_paid: AmountSchema,
  amount_due: AmountSchema,
  currency: z.string(),
  receipt: z.string().nullish(),
  status: z.enum(["created", "attempted", "paid"]),
  notes: RazorpayNotesSchema,
  created_at: UnixSecondsSchema,
});
export type RazorpayOrder = z.infer<typeof RazorpayOrderSchema>;

export const PAYMENT_LINK_STATUSES = [
  "created",
  "partially_paid",
  "paid",
  "cancelled",
  "expired",
] as const;

export const RazorpayPaymentLinkSchema = z.object({
  id: IdSchema,
  amount: AmountSchema,
  amount_paid: AmountSchema,
  currency: z.string(),
  status: z.enum(PAYMENT_LINK_STATUSES),
  short_url: z.string().min(1),
  reference_id: z.string().nullish(),
  // Set once the payer opens the link (Razorpay makes the order then).
  order_id: IdSchema.nullish(),
  expire_by: UnixSecondsSchema.nullish(),
  notes: RazorpayNotesSchema.nullish(),
  // null until a payment is attempted.
  payments: z
    .array(
      z.object({
        payment_id: IdSchema,
        amount: AmountSchema,
        status: z.enum(PAYMENT_STATUSES),
      }),
    )
    .nullish(),
  created_at: UnixSecondsSchema,
});
export type RazorpayPaymentLink = z.infer<typeof RazorpayPaymentLinkSchema>;

/** `GET /v1/payment_links?reference_id=…`. */
export const RazorpayPaymentLinkListSchema = z.object({
  payment_links: z.array(RazorpayPaymentLinkSchema),
});
export type RazorpayPaymentLinkList = z.infer<typeof RazorpayPaymentLinkListSchema>;

export const RazorpayRefundSchema = z.object({
  id: IdSchema,
  entity: z.literal("refund"),
  amount: AmountSchema,
  currency: z.string(),
  payment_id: IdSchema,
  status: z.enum(["pending", "processed", "failed"]),
  notes: RazorpayNotesSchema.nullish(),
  acquirer_data: z.object({ arn: z.string().nullish() }).partial().nullish(),
  created_at: UnixSecondsSchema,
});
export type RazorpayRefund = z.infer<typeof RazorpayRefundSchema>;

export const TRANSFER_STATUSES = [
  "created",
  "pending",
  "processed",
  "failed",
  "reversed",
  "partially_reversed",
] as const;

export const RazorpayTransferSchema = z.object({
  id: IdSchema,
  entity: z.literal("transfer"),
  status: z.enum(TRANSFER_STATUSES),
  settlement_status: z.enum(["pending", "on_hold", "settled"]).nullish(),
  // The payment the money came from, and the linked account it goes to.
  source: IdSchema,
  recipient: IdSchema,
  amount: AmountSchema,
  currency: z.string(),
  amount_reversed: AmountSchema,
  notes: RazorpayNotesSchema,
  on_hold: z.boolean(),
  on_hold_until: UnixSecondsSchema.nullish(),
  processed_at: UnixSecondsSchema.nullish(),
  created_at: UnixSecondsSchema,
});
export type RazorpayTransfer = z.infer<typeof RazorpayTransferSchema>;

export const RazorpayReversalSchema = z.object({
  id: IdSchema,
  entity: z.literal("reversal"),
  transfer_id: IdSchema,
  amount: AmountSchema,
  currency: z.string(),
  notes: RazorpayNotesSchema,
  created_at: UnixSecondsSchema,
});
export type RazorpayReversal = z.infer<typeof RazorpayReversalSchema>;

/** Razorpay's list envelope: `{"entity":"collection","count":n,"items":[…]}`. */
export function razorpayCollectionSchema<T extends z.ZodType>(item: T) {
  return z.object({
    entity: z.literal("collection"),
    count: z.number().int().nonnegative(),
    items: z.array(item),
  });
}

/** `GET` and `POST /v1/payments/:id/transfers` both answer a collection of transfers. */
export const RazorpayTransferCollectionSchema = razorpayCollectionSchema(RazorpayTransferSchema);
export const RazorpayReversalCollectionSchema = razorpayCollectionSchema(RazorpayReversalSchema);

export const LINKED_ACCOUNT_STATUSES = [
  "created",
  "activated",
  "needs_clarification",
  "under_review",
  "suspended",
  "rejected",
] as const;

/** `POST /v2/accounts` (a Route linked account). */
export const RazorpayLinkedAccountSchema = z.object({
  id: z.string().regex(/^acc_[A-Za-z0-9]+$/),
  type: z.literal("route"),
  status: z.enum(LINKED_ACCOUNT_STATUSES),
  reference_id: z.string().nullish(),
  created_at: UnixSecondsSchema,
});
export type RazorpayLinkedAccount = z.infer<typeof RazorpayLinkedAccountSchema>;
