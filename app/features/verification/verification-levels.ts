/**
 * The verification ladder (docs/product.md, "Verification"): the one place for its levels, their
 * order and their words. Browser-safe: no database here; `sessionLevels` (verification-levels
 * .server.ts) reads the rows and `levelOf` below decides.
 */

export const VERIFICATION_LEVELS = [
  {
    id: "self_logged",
    label: "Self-logged",
    explanation: "Only the artist says so.",
    detail:
      "The artist logged it and nobody else whose word counts has vouched for it yet. It proves nothing beyond the artist's own entry, though it still counts towards their hours.",
  },
  {
    id: "peer_confirmed",
    label: "Peer-confirmed",
    explanation: "Two artists who were there confirmed it after it ended.",
    detail:
      "After the session ended, at least two other established artists confirmed it, or one who has a client-verified gig of their own. It proves that more than one fellow artist vouches for it. It does not prove that anyone paid for it, and fellow artists may be friends.",
  },
  {
    id: "lineup_verified",
    label: "Lineup-verified",
    explanation: "Everyone who joined the lineup confirmed it after it ended.",
    detail:
      "The artist planned it ahead, other artists joined it as collaborators, and after it ended every one of them confirmed it took place as logged, with at least two voices in all and at least one from outside the artist's own circle. It proves the people who played it agree it happened. It does not prove a client booked or paid for it.",
  },
  {
    id: "client_verified",
    label: "Client-verified",
    explanation: "Booked and completed here, and rated by its client.",
    detail:
      "A client booked the artist on GigLedger, the gig took place, and the client rated it. Nobody logged it by hand. It proves that someone who booked the gig says it happened. It does not prove that the money changed hands as agreed, nor how well it went: the rating says that.",
  },
  {
    id: "paid_and_agreed",
    label: "Paid & agreed",
    explanation: "Agreed and paid here; the payout was released with no problem reported.",
    detail:
      "The artist and the client agreed the terms on GigLedger (a signed agreement, whose fingerprint the credential carries), the client paid through GigLedger, the gig took place, and the artist's payout was released after it without either side reporting a problem. It proves the gig was agreed, paid and delivered without a complaint. It does not prove how well it went (the rating says that), and it never shows how much was paid.",
  },
] as const;

export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number]["id"];
type VerificationLevelInfo = (typeof VERIFICATION_LEVELS)[number];

export const LEVEL_INFO = Object.fromEntries(VERIFICATION_LEVELS.map((l) => [l.id, l])) as Record<
  VerificationLevel,
  VerificationLevelInfo
>;

/** Ladder order, by how independent the evidence is: a higher rung wins. */
export const levelRank = (level: VerificationLevel) =>
  VERIFICATION_LEVELS.findIndex((l) => l.id === level);

/** Peer-confirmed: this many distinct artists whose confirmations count (or one with a client gig). */
export const PEER_VOICES = 2;

/** An account this young confirms nothing that counts (docs/decisions/046). */
export const MIN_ACCOUNT_AGE_DAYS = 7;

/** Confirmations from one artist of another's sessions count once per this many days. */
export const PAIR_WINDOW_DAYS = 90;

/** How a verifier is named: an artist's name, or "the client" for a booking. */
const CLIENT_VERIFIER_NAME = "the client";

/** Who vouched for a session's level, and when. `artistSlug` is null for the client. */
export type Verifier = { name: string; artistSlug: string | null; at: Date };

/** A session's level, who reached it and when (null when Self-logged). */
export type SessionLevel = {
  level: VerificationLevel;
  verifiers: Verifier[];
  reachedAt: Date | null;
  /** Confirmations recorded but not counted, each with why (shown on the session page). */
  uncounted?: { artistSlug: string; reason: VoidReason }[];
};

/**
 * Why a recorded confirmation does not lift the level (docs/decisions/046): the owner's own, given
 * before the session ended, from an account younger than a week, from an artist who had logged no
 * session of their own, or a repeat of the same artist for the same owner within 90 days.
 */
export type VoidReason = "own" | "before_end" | "new_account" | "no_sessions" | "repeat";

export const VOID_REASON_TEXT: Record<VoidReason, string> = {
  own: "the artist's own confirmation",
  before_end: "given before the session ended",
  new_account: "from an account less than a week old",
  no_sessions: "from an artist with no session of their own",
  repeat: "the same artist confirmed this artist's work less than 90 days earlier",
};

/** One artist's confirmation of a session (a peer verification or a lineup "it happened"). */
export type Confirmation = {
  artistId: string;
  name: string;
  artistSlug: string;
  at: Date;
  /** Null when it counts. */
  void: VoidReason | null;
  /** The confirming artist has a Client-verified gig of their own. */
  hasClientGig: boolean;
  /** The confirming artist's own standing does not rest only on the owner's ring (decision 046). */
  independent: boolean;
};

/** The rows that prove a session's level, already read and judged. */
export type LevelFacts = {
  /**
   * Set when the session's booking was agreed and paid through GigLedger and its payout was
   * released with no problem reported (`paidAndAgreedAt` in verification-levels.server.ts): when
   * the payout was released.
   */
  paidAndAgreedAt?: Date | null;
  /** Set when the session was logged from a booking its client rated; when it was rated. */
  clientRatedAt: Date | null;
  /** Peer verifications, any order. */
  peers: Confirmation[];
  /** Collaborators who joined before the start, with their lineup answer if they gave one. */
  lineup: {
    artistId: string;
    name: string;
    artistSlug: string;
    answer: "confirmed" | "declined" | null;
    /** The confirmation, when the answer was "confirmed". */
    confirmation: Confirmation | null;
  }[];
};

/** The method stored on a session's row for a level (null below Peer-confirmed). */
export const VERIFICATION_METHOD_OF = {
  self_logged: null,
  peer_confirmed: "peer",
  lineup_verified: "lineup",
  client_verified: "client_booking",
  // The same stored method: the row says how it was verified (a client booking), the ladder how far.
  paid_and_agreed: "client_booking",
} as const satisfies Record<VerificationLevel, string | null>;

const SELF_LOGGED: SessionLevel = { level: "self_logged", verifiers: [], reachedAt: null };

/** Distinct artists among counting confirmations, each at their first counting one. */
function voicesOf(confirmations: Confirmation[]): Confirmation[] {
  const seen = new Map<string, Confirmation>();
  for (const c of [...confirmations].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    if (c.void === null && !seen.has(c.artistId)) seen.set(c.artistId, c);
  }
  return [...seen.values()];
}

const asVerifiers = (voices: Confirmation[]): Verifier[] =>
  voices.map(({ name, artistSlug, at }) => ({ name, artistSlug, at }));

/** More than one voice: two distinct artists, or one who has a Client-verified gig. */
const isPeerConfirmed = (voices: Confirmation[]) =>
  voices.length >= PEER_VOICES || voices.some((v) => v.hasClientGig);

/**
 * The level the judged rows prove, highest rung first (docs/product.md, "Verification"):
 * Paid & agreed (agreed and paid through GigLedger, payout released with no problem reported,
 * reached when it was released); Client-verified (a rated booking); Lineup-verified (every joined collaborator, at least one,
 * confirmed after the end and counts, at least two voices in all and one of them independent of
 * the owner's ring); Peer-confirmed (two voices, or one with a client gig); else Self-logged.
 * Confirmations that do not count are left out of the verifiers.
 */
export function levelOf(facts: LevelFacts): SessionLevel {
  const level = ladderLevelOf(facts);
  const uncounted = [
    ...facts.peers,
    ...facts.lineup.flatMap((m) => (m.confirmation ? [m.confirmation] : [])),
  ].flatMap((c) => (c.void ? [{ artistSlug: c.artistSlug, reason: c.void }] : []));
  return uncounted.length > 0 ? { ...level, uncounted } : level;
}

function ladderLevelOf(facts: LevelFacts): SessionLevel {
  if (facts.paidAndAgreedAt) {
    // The client vouched with the money: the release is when the ladder's top was reached.
    return {
      level: "paid_and_agreed",
      verifiers: [{ name: CLIENT_VERIFIER_NAME, artistSlug: null, at: facts.paidAndAgreedAt }],
      reachedAt: facts.paidAndAgreedAt,
    };
  }
  if (facts.clientRatedAt) {
    return {
      level: "client_verified",
      verifiers: [{ name: CLIENT_VERIFIER_NAME, artistSlug: null, at: facts.clientRatedAt }],
      reachedAt: facts.clientRatedAt,
    };
  }
  const lineupConfirmations = facts.lineup.flatMap((m) => (m.confirmation ? [m.confirmation] : []));
  const voices = voicesOf([...facts.peers, ...lineupConfirmations]);
  const lineupCounts =
    facts.lineup.length > 0 &&
    facts.lineup.every((m) => m.answer === "confirmed" && m.confirmation?.void === null);
  // The first moment a rule held: grow the voices one at a time, oldest first.
  const reached = (holds: (prefix: Confirmation[]) => boolean) => {
    for (let i = 1; i <= voices.length; i++) {
      if (holds(voices.slice(0, i))) return voices[i - 1]?.at ?? null;
    }
    return null;
  };
  if (lineupCounts) {
    const members = new Set(facts.lineup.map((m) => m.artistId));
    const at = reached(
      (prefix) =>
        [...members].every((id) => prefix.some((v) => v.artistId === id)) &&
        prefix.length >= PEER_VOICES &&
        prefix.some((v) => v.independent),
    );
    if (at) return { level: "lineup_verified", verifiers: asVerifiers(voices), reachedAt: at };
  }
  const at = reached(isPeerConfirmed);
  if (at) return { level: "peer_confirmed", verifiers: asVerifiers(voices), reachedAt: at };
  return SELF_LOGGED;
}

/** "A", "A and B", "A, B and C". */
function listNames(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Who verified a session and when, in words: "Verified by Asha Rao and Ravi on Nov 21, 2026",
 * "Verified by the client on Nov 21, 2026"; null when Self-logged. On a collaborator's copy of
 * someone else's session (`ownerName` given) it says whose session it is and who confirmed it:
 * "Asha Rao's session, confirmed by Ravi and Lee on Nov 21, 2026", so no card reads as if the
 * artist it is shown for verified their own work. `formatDay` turns the instant into the artist's
 * calendar day (passed in, so this stays free of any date library choice).
 */
export function verifiedByText(
  level: SessionLevel,
  formatDay: (at: Date) => string,
  copyOf?: { ownerName: string },
): string | null {
  if (level.level === "self_logged" || !level.reachedAt) {
    return copyOf ? `${copyOf.ownerName}'s session, not confirmed yet` : null;
  }
  const names = listNames([...new Set(level.verifiers.map((v) => v.name))]);
  const day = formatDay(level.reachedAt);
  return copyOf
    ? `${copyOf.ownerName}'s session, confirmed by ${names} on ${day}`
    : `Verified by ${names} on ${day}`;
}
