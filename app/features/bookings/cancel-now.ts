import type { AgreementDocument } from "~/features/agreements/agreement-document";
import { balanceDueAt, eventStartOf } from "~/features/agreements/agreement-times";
import { cancellationOutcome } from "~/features/terms/cancellation";

// "If you cancel now": what the agreed policy makes of a cancellation at a given moment. The
// booking page shows it and the cancellation records it, from this one function (decision 047).

/**
 * What the client has paid by `at` under the agreed schedule: the deposit once agreed, everything
 * from the start of the balance's due day. Payments go directly between the parties for now, so
 * the schedule stands in for them (decision 047).
 */
export function scheduledPaidBy(agreement: AgreementDocument, at: Date): number {
  const { payments } = agreement.offer;
  return at >= balanceDueAt(agreement)
    ? payments.depositPaise + payments.balancePaise
    : payments.depositPaise;
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
  /** Paid through GigLedger: what was really captured and not refunded, not the schedule. */
  paidThroughGigLedger?: number,
): CancelOutcome {
  const paidPaise = paidThroughGigLedger ?? scheduledPaidBy(agreement, at);
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
