/**
 * The enumerated values of the data model, with no dependencies: the schema builds its CHECK
 * constraints from them, and browser code may import them without pulling in Drizzle.
 */
export const SESSION_TYPES = ["performance", "practice", "jam", "recording"] as const;
export const MEDIA_TYPES = ["photo", "video", "audio"] as const;
export const PARTICIPATION_TYPES = ["collaborator", "verifier"] as const;
export const PARTICIPANT_STATUSES = ["verified", "pending"] as const;
export const VERIFICATION_METHODS = ["peer", "client_booking", "lineup"] as const;
/** A joined collaborator's answer, after the start, to "did it take place as logged?". */
export const LINEUP_ANSWERS = ["confirmed", "declined"] as const;
export const TRUST_SCORES = [100, 75, 50, 25] as const;
export const AVAILABILITY_STATUSES = ["available", "booked", "unavailable"] as const;
export const BOOKING_STATUSES = [
  "pending",
  "awaiting_deposit",
  "confirmed",
  "rejected",
  "completed",
  "cancelled",
] as const;
export const BOOKING_CANCELLERS = ["client", "artist"] as const;
export const EVENT_TYPES = [
  "Live Show",
  "Private Event",
  "Jam Session",
  "Recording Session",
  "Corporate Event",
  "Wedding",
] as const;
export const ANALYTICS_EVENT_TYPES = ["view", "media_play", "share"] as const;
export const ROLES = ["artist", "client", "admin", "operator"] as const;

/** A booking's terms, version by version (docs/decisions/047). */
export const POLICY_CODES = ["flexible", "moderate", "strict"] as const;
export const OFFER_KINDS = ["request", "quote"] as const;
export const OFFER_STATUSES = ["open", "superseded", "declined", "withdrawn", "accepted"] as const;
export const AGREEMENT_PARTIES = ["artist", "client"] as const;
export const AGREEMENT_STATUSES = ["in_force", "superseded", "cancelled"] as const;

/** The ledger's chart of accounts and why money moved (docs/decisions/050). */
export const LEDGER_ACCOUNT_KINDS = [
  "world",
  "liability",
  "income",
  "expense",
  "suspense",
] as const;
export const LEDGER_TXN_KINDS = [
  "capture",
  "split",
  "transfer",
  "fee",
  "release",
  "refund_init",
  "reversal",
  "refund",
  "settle",
  "chargeback",
  "adjustment",
] as const;

/** Payment providers whose events the inbox takes (docs/decisions/052). */
export const PROVIDERS = ["razorpay"] as const;

/** Money through the platform (docs/decisions/055). */
export const PAID_THROUGH = ["direct", "gigledger"] as const;
export const PAYOUT_METHODS = ["upi", "bank"] as const;
export const PAYMENT_PURPOSES = ["deposit", "balance", "full"] as const;
export const PAYMENT_INTENT_STATUSES = [
  "created",
  "pending",
  "captured",
  "failed",
  "expired",
  "cancelled",
] as const;
export const PROVIDER_COMMAND_KINDS = [
  "create_transfer",
  "release_transfer",
  "reverse_transfer",
  "refund",
] as const;
export const PROVIDER_COMMAND_STATUSES = ["pending", "succeeded", "needs_attention"] as const;
export const PROVIDER_EVENT_OUTCOMES = [
  "applied",
  "ignored",
  "orphan",
  "mismatch",
  "refunded",
] as const;
export const MONEY_EVENT_KINDS = [
  "deposit_requested",
  "balance_requested",
  "payment_received",
  "payment_failed",
  "payout_held",
  "payout_released",
  "refund_started",
  "refund_paid",
  "automatic_refund",
  "balance_reminder",
  "more_time_given",
  "cancelled_for_non_payment",
  "problem_reported",
  "problem_answered",
  "problem_decided",
] as const;
/** What a problem report is about (design money-and-terms §6; issue 42). */
export const PROBLEM_CATEGORIES = [
  "artist_no_show",
  "not_as_agreed",
  "balance_not_paid",
  "venue_refused_entry",
  "safety_or_conduct",
  "other",
] as const;
export const PROBLEM_DECISIONS = ["refund_full", "refund_partial", "release"] as const;
