import type { OfferLine } from "~/features/agreements/agreement-document";
import type { PolicyCode } from "~/features/terms/terms-types";

/** The quote composer's values: the latest version's, for the artist to revise. */
export type QuoteDraft = {
  eventDate: string;
  startTime: string;
  durationHours: number;
  lines: OfferLine[];
  depositPercent: number;
  balanceDueDays: number;
  policy: PolicyCode;
  included: string[];
  notes: string;
};
