import { z } from "zod";
import { TRUST_SCORES } from "~db/enums";

export const SHARE_LINK_DAYS = 7;

export const INVALID_LINK_MESSAGE = "This sharing link is invalid or has expired.";
export const EXPIRED_LINK_MESSAGE = "This sharing link has expired.";
export const USED_UP_LINK_MESSAGE =
  "This sharing link has already been used the maximum number of times.";
export const UNKNOWN_LINK_MESSAGE = "This sharing link does not exist. Please ask for a new one.";

/** Max uses: a whole number of at least 1, or empty (or left out) for unlimited. */
export const ShareSessionSchema = z.object({
  maxUses: z
    .string("Max uses must be a whole number of at least 1")
    .trim()
    .regex(/^\d*$/, "Max uses must be a whole number of at least 1")
    .optional()
    .transform((v) => (v ? Number(v) : null))
    .refine(
      (v) => v === null || (v >= 1 && v <= 100_000),
      "Max uses must be a whole number of at least 1",
    ),
});

export const TokenSchema = z
  .string("Invalid token format")
  .trim()
  .min(1, "Invalid token format")
  .max(200, "Invalid token format")
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid token format");

const notes = z
  .string()
  .trim()
  .max(1000, "Please use at most 1000 characters")
  .optional()
  .transform((v) => v || null);

export const JoinSessionSchema = z.object({ notes });

/** Confirmations count only after the fact (docs/decisions/046). */
export const NOT_ENDED_MESSAGE =
  "This session hasn't ended yet. You can verify it once it is over.";

export type TrustScore = (typeof TRUST_SCORES)[number];
/**
 * The verifier chooses a trust score: none is preselected (docs/decisions/046). It is recorded and
 * shown (the session's peer score is the mean), but it no longer decides the level.
 */
export const VerifySessionSchema = z.object({
  notes,
  trustScore: z.coerce
    .number()
    .refine((v): v is TrustScore => (TRUST_SCORES as readonly number[]).includes(v), {
      message: "Please choose a trust score of 100, 75, 50 or 25",
    }),
});

export const TRUST_SCORE_LABELS: Record<TrustScore, string> = {
  100: "100 – I was there and can fully vouch for it",
  75: "75 – I'm fairly sure",
  50: "50 – I'm partly sure",
  25: "25 – I can only partly confirm it",
};
