import type { SESSION_TYPES } from "~db/enums";

/** docs/product.md, "The signed performance CV". */
export const VERIFICATION_LEVELS = [
  "Self-logged",
  "Peer-confirmed",
  "Lineup-verified",
  "Client-verified",
  "Paid & agreed",
] as const;
export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number];

/** Levels that earn a signed credential: Peer-confirmed and above. */
export const isSignedLevel = (level: VerificationLevel) =>
  VERIFICATION_LEVELS.indexOf(level) >= VERIFICATION_LEVELS.indexOf("Peer-confirmed");

/** Open Badges has no achievement type for music: extension types (`ext:`) are allowed. */
export const ACHIEVEMENT_TYPES: Record<(typeof SESSION_TYPES)[number], string> = {
  performance: "ext:Performance",
  recording: "ext:Recording",
  jam: "ext:JamSession",
  practice: "ext:Practice",
};

export const CONTEXT_VC_2 = "https://www.w3.org/ns/credentials/v2";
export const CONTEXT_OB_3 = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json";

/** Bits per status list: the specification's minimum, so one bit says little about whom. */
export const STATUS_LIST_SIZE = 131_072;

/** The /verify page reads at most this much, and checks at most this many credentials. */
export const MAX_CV_UPLOAD_BYTES = 2 * 1024 * 1024;
export const MAX_CREDENTIALS_CHECKED = 600;

/** The bundle's `type`: a CV with a snapshot of the issuer's did.json, for offline checking. */
export const CV_BUNDLE_TYPE = "GigLedgerCvBundle";
