import type { AgreementDocument } from "~/features/agreements/agreement-document";
import { cancellationOutcome } from "~/features/terms/cancellation";
import { zonedDateTimeToUtc } from "~/lib/dates";

// "If you cancel now": what the agreed policy makes of a cancellation at a given moment. The
// booking page shows it and the cancellation records it, from this one function (decision 047).

/** When the agreed event starts: its date and start time in the artist's zone (noon without one). */
export function eventStartOf(agreement: AgreementDocument): Date {
  const { date, startTime, timeZone } = agreement.offer.event;
  return zonedDateTimeToUtc(date, startTime ?? "12:00", timeZone);
}

/**
 * What the client has paid by `at` under the agreed schedule: the deposit once agreed, everything
 * from the start of the balance's due day. Payments go directly between the parties for now, so
 * the schedule stands in for them (decision 047).
 */
export function scheduledPaidBy(agreement: AgreementDocument, at: Date): number {
  const { payments, event } = agreement.offer;
  const balanceDue = zonedDateTimeToUtc(payments.balanceDueDate, "00:00", event.timeZone);
  return at >= balanceDue ? payments.depositPaise + payments.balancePaise : payments.depositPaise;
}

export type CancelOutcome = ReturnType<typeof cancellationOutcome> & {
  canceller: "client" | "artist";
  at: string;
  paidPaise: number;
  totalPaise: number;
  policyName: string;
};

/**
 * The outcome of `canceller` cancelling the agreed booking at `at`. The cooling-off counts from
 * when the booking was first agreed (`firstAgreedAt`): a change agreed later starts no new one.
 */
export function cancellationNow(
  agreement: AgreementDocument,
  canceller: "client" | "artist",
  at: Date,
  firstAgreedAt: Date = new Date(agreement.frozenAt),
): CancelOutcome {
  const paidPaise = scheduledPaidBy(agreement, at);
  const outcome = cancellationOutcome({
    cancellation: agreement.offer.cancellation,
    totalPaise: agreement.offer.price.totalPaise,
    paidPaise,
    acceptedAt: firstAgreedAt,
    eventStartAt: eventStartOf(agreement),
    canceller,
    at,
  });
  return {
    ...outcome,
    canceller,
    at: at.toISOString(),
    paidPaise,
    totalPaise: agreement.offer.price.totalPaise,
    policyName: agreement.offer.cancellation.policyName,
  };
}
