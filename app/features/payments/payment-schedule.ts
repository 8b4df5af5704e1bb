// What a client owes now on a booking paid through GigLedger (docs/decisions/055): pure, from the
// agreement, the booking's status and what was captured, so the page, the checkout and the
// reminders ask for the same amount.

import type { AgreementDocument } from "~/features/agreements/agreement-document";
import { balanceDueAt, eventStartOf } from "~/features/agreements/agreement-times";
import type { PAYMENT_PURPOSES } from "~db/enums";

export type PaymentPurpose = (typeof PAYMENT_PURPOSES)[number];
export type PaymentDue = { purpose: PaymentPurpose; amountPaise: number; dueAt: Date };

/** How long the client has to pay the deposit once the booking is agreed. */
export const DEPOSIT_WINDOW_HOURS = 48;
/** After the balance's due day, how long before the artist may cancel for non-payment. */
export const BALANCE_GRACE_HOURS = 48;

/**
 * The payment that confirms an agreed booking: the deposit, or everything at once when the
 * balance is already due (an event inside the balance window); null when nothing is to be paid
 * before confirming (no deposit and the balance not yet due).
 */
export function firstPaymentOf(
  agreement: Pick<AgreementDocument, "offer">,
  at: Date,
): PaymentDue | null {
  const { payments, price } = agreement.offer;
  if (at >= balanceDueAt(agreement))
    return price.totalPaise > 0
      ? { purpose: "full", amountPaise: price.totalPaise, dueAt: at }
      : null;
  return payments.depositPaise > 0
    ? { purpose: "deposit", amountPaise: payments.depositPaise, dueAt: at }
    : null;
}

/** Until when the deposit may be paid: the window, or the event's start if that comes first. */
export function depositDeadline(agreement: Pick<AgreementDocument, "offer">, agreedAt: Date): Date {
  const window = new Date(agreedAt.getTime() + DEPOSIT_WINDOW_HOURS * 3_600_000);
  const start = eventStartOf(agreement);
  return window < start ? window : start;
}

/** When the balance may be called overdue: its due day's start plus the grace. */
export function balanceGraceEnd(dueAt: Date): Date {
  return new Date(dueAt.getTime() + BALANCE_GRACE_HOURS * 3_600_000);
}

/**
 * What the client should pay now: the first payment while the booking awaits it; afterwards the
 * balance (the total less what was captured) once anything of it is left. `balanceDueAt` is the
 * due date in force (the agreement's, or a later one the artist gave).
 */
export function paymentDueNow(input: {
  agreement: AgreementDocument;
  status: string;
  capturedPaise: number;
  at: Date;
  balanceDueOverride?: Date | null;
}): PaymentDue | null {
  const { agreement, status, capturedPaise, at } = input;
  if (status === "awaiting_deposit") return firstPaymentOf(agreement, at);
  if (status !== "confirmed") return null;
  const remaining = agreement.offer.price.totalPaise - capturedPaise;
  if (remaining <= 0) return null;
  return {
    purpose: "balance",
    amountPaise: remaining,
    dueAt: input.balanceDueOverride ?? balanceDueAt(agreement),
  };
}
