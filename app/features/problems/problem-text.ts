// The words of problem reports (docs/product.md, "Problems"), shared by the booking's problem
// page, the operator's desk and the mails. Pure: no database.
import { PROBLEM_CATEGORIES, PROBLEM_DECISIONS } from "~db/enums";

export { PROBLEM_CATEGORIES, PROBLEM_DECISIONS };
export type ProblemCategory = (typeof PROBLEM_CATEGORIES)[number];
export type ProblemDecision = (typeof PROBLEM_DECISIONS)[number];

export const CATEGORY_WORDS: Record<ProblemCategory, string> = {
  artist_no_show: "The artist did not show up",
  not_as_agreed: "The performance was much shorter or different from the agreement",
  balance_not_paid: "The client did not pay the balance",
  venue_refused_entry: "The venue refused entry",
  safety_or_conduct: "Safety or conduct",
  other: "Other",
};

export const DECISION_WORDS: Record<ProblemDecision, string> = {
  refund_full: "Full refund to the client",
  refund_partial: "Part refunded to the client, the rest released to the artist",
  release: "Released to the artist",
};

/** A decision is due 7 days after the report (the target; at most 30, docs/decisions/058). */
export const DECISION_DUE_DAYS = 7;
export const DECISION_MAX_DAYS = 30;

/** At most this many characters in a statement or an answer. */
export const STATEMENT_MAX = 2000;

/** What a report's or an answer's files may be (the server checks their bytes again). */
export const ACCEPTED_PROBLEM_FILES =
  "image/jpeg,image/png,image/gif,image/webp,audio/mpeg,audio/wav,application/pdf";
