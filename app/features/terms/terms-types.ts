// The shapes of published and agreed cancellation terms: data the policies fill in, agreements
// copy whole, and the cancellation reads.

/** The three named cancellation policies (app/features/terms/policies.ts holds their tables). */
export type PolicyCode = "flexible" | "moderate" | "strict";

/** The client's cancellation charge, as a share of the agreed total, by notice given. */
export type ChargeBand = { minNoticeHours: number; chargeBps: number };

export type CancellationTerms = {
  policy: PolicyCode;
  policyName: string;
  policyVersion: number;
  /** Longest notice first; the last band has minNoticeHours 0. */
  clientCharges: ChargeBand[];
  /** A client cancelling within this many hours of accepting is charged nothing... */
  coolingOffHours: number;
  /** ...when the event is at least this many hours away at the cancellation. */
  coolingOffMinNoticeHours: number;
  artistCancels: "fullRefund";
};
