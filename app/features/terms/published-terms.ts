import { policyTerms } from "./policies";
import type { CancellationTerms, PolicyCode } from "./terms-types";

/** The terms an artist publishes on their profile: every request is an offer on them. */
export type PublishedTerms = { depositBps: number; balanceDueDays: number; policy: PolicyCode };

/** What the published terms' hash covers: the deposit, the balance's due day, the whole policy. */
export function publishedTermsDocument(terms: PublishedTerms): {
  type: "GigLedgerPublishedTerms";
  depositBps: number;
  balanceDueDays: number;
  cancellation: CancellationTerms;
} {
  return {
    type: "GigLedgerPublishedTerms",
    depositBps: terms.depositBps,
    balanceDueDays: terms.balanceDueDays,
    cancellation: policyTerms(terms.policy),
  };
}
