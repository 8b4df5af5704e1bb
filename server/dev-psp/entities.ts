/**
 * The embedded provider's objects as Razorpay writes them on the wire (decision 053): snake_case,
 * amounts in paise, times in Unix seconds. Built from the `psp_*` rows; what the fake does not
 * model (fees, notifications, reminders) has Razorpay's empty values.
 */
import type {
  pspAccounts,
  pspOrders,
  pspPaymentLinks,
  pspPayments,
  pspRefunds,
  pspReversals,
  pspTransfers,
} from "~db/schema";

export type Order = typeof pspOrders.$inferSelect;
export type Payment = typeof pspPayments.$inferSelect;
export type Refund = typeof pspRefunds.$inferSelect;
export type PaymentLink = typeof pspPaymentLinks.$inferSelect;
export type Account = typeof pspAccounts.$inferSelect;
export type Transfer = typeof pspTransfers.$inferSelect;
export type Reversal = typeof pspReversals.$inferSelect;

export const unix = (date: Date) => Math.floor(date.getTime() / 1000);

export function orderEntity(order: Order) {
  return {
    id: order.id,
    entity: "order",
    amount: order.amount,
    amount_paid: order.amountPaid,
    amount_due: order.amount - order.amountPaid,
    currency: order.currency,
    receipt: order.receipt,
    offer_id: null,
    status: order.status,
    attempts: order.attempts,
    notes: order.notes,
    created_at: unix(order.createdAt),
  };
}

/** A payment; `notes` are its payment link's when it was paid through one. */
export function paymentEntity(payment: Payment, notes: Record<string, string> = {}) {
  const refundStatus =
    payment.amountRefunded === 0
      ? null
      : payment.amountRefunded < payment.amount
        ? "partial"
        : "full";
  return {
    id: payment.id,
    entity: "payment",
    amount: payment.amount,
    currency: payment.currency,
    status: payment.status,
    order_id: payment.orderId,
    invoice_id: null,
    international: false,
    method: "upi",
    amount_refunded: payment.amountRefunded,
    refund_status: refundStatus,
    captured: payment.status !== "failed",
    description: null,
    vpa: payment.status === "failed" ? "failure@razorpay" : "success@razorpay",
    notes,
    fee: 0,
    tax: 0,
    error_code: payment.errorCode,
    error_description: payment.errorDescription,
    error_source: payment.errorCode ? "customer" : null,
    error_step: payment.errorCode ? "payment_authentication" : null,
    error_reason: payment.errorCode ? "payment_failed" : null,
    created_at: unix(payment.createdAt),
  };
}

export function refundEntity(refund: Refund, currency: string) {
  return {
    id: refund.id,
    entity: "refund",
    amount: refund.amount,
    currency,
    payment_id: refund.paymentId,
    notes: {},
    receipt: null,
    acquirer_data: { arn: null },
    batch_id: null,
    status: refund.status,
    speed_processed: "normal",
    speed_requested: "normal",
    created_at: unix(refund.createdAt),
  };
}

/**
 * A Payment Link as `GET /v1/payment_links/:id` answers it. `base` is the fake's own absolute
 * address (`http://host/dev/psp`), for `short_url`. `payments` is null until one is attempted.
 */
export function paymentLinkEntity(
  link: PaymentLink,
  order: Order,
  payments: Payment[],
  base: string,
) {
  const createdAt = unix(link.createdAt);
  return {
    id: link.id,
    accept_partial: false,
    amount: link.amount,
    amount_paid: order.amountPaid,
    callback_method: link.callbackUrl ? "get" : "",
    callback_url: link.callbackUrl ?? "",
    cancelled_at: 0,
    created_at: createdAt,
    currency: order.currency,
    customer: link.customer,
    description: link.description,
    expire_by: link.expireBy ? unix(link.expireBy) : 0,
    expired_at: 0,
    first_min_partial_amount: 0,
    notes: link.notes,
    // The fake sends no text message or e-mail.
    notify: { email: false, sms: false, whatsapp: false },
    order_id: order.id,
    payments:
      payments.length === 0
        ? null
        : payments.map((payment) => ({
            amount: payment.amount,
            created_at: unix(payment.createdAt),
            method: "upi",
            payment_id: payment.id,
            plink_id: link.id,
            status: payment.status,
            updated_at: unix(payment.createdAt),
          })),
    reference_id: link.referenceId,
    reminder_enable: false,
    reminders: [],
    short_url: `${base}/pay/${link.id}`,
    status: link.status,
    updated_at: createdAt,
    upi_link: false,
    user_id: "",
    whatsapp_link: false,
  };
}

/** A Route linked account (`POST /v2/accounts`). */
export function accountEntity(account: Account) {
  const createdAt = unix(account.createdAt);
  return {
    id: account.id,
    type: "route",
    status: account.status,
    email: account.email,
    legal_business_name: account.legalName,
    customer_facing_business_name: account.legalName,
    business_type: "individual",
    contact_name: account.legalName,
    reference_id: account.referenceId,
    notes: {},
    created_at: createdAt,
    activated_at: account.status === "activated" ? createdAt : null,
    live: false,
    hold_funds: false,
  };
}

/** A Route transfer: processed at once; held until released (`on_hold`), then pending settlement. */
export function transferEntity(transfer: Transfer) {
  const status =
    transfer.amountReversed === 0
      ? "processed"
      : transfer.amountReversed === transfer.amount
        ? "reversed"
        : "partially_reversed";
  const createdAt = unix(transfer.createdAt);
  return {
    id: transfer.id,
    entity: "transfer",
    status,
    source: transfer.paymentId,
    recipient: transfer.accountId,
    amount: transfer.amount,
    currency: "INR",
    amount_reversed: transfer.amountReversed,
    fees: 0,
    tax: 0,
    notes: transfer.notes,
    linked_account_notes: [],
    on_hold: transfer.onHold,
    on_hold_until: null,
    settlement_status: transfer.settled ? "settled" : transfer.onHold ? "on_hold" : "pending",
    recipient_settlement_id: null,
    created_at: createdAt,
    processed_at: createdAt,
    error: {
      code: null,
      description: null,
      reason: null,
      field: null,
      step: null,
      id: transfer.id,
      source: null,
      metadata: null,
    },
  };
}

export function reversalEntity(reversal: Reversal) {
  return {
    id: reversal.id,
    entity: "reversal",
    transfer_id: reversal.transferId,
    amount: reversal.amount,
    fee: 0,
    tax: 0,
    currency: "INR",
    notes: reversal.notes,
    initiator_id: null,
    customer_refund_id: null,
    utr: null,
    created_at: unix(reversal.createdAt),
  };
}

/** Razorpay's list envelope. */
export function collection<T>(items: T[]) {
  return { entity: "collection", count: items.length, items };
}
