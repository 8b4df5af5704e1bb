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
      "The artist logged it and nobody else has vouched for it yet. It still counts towards their hours.",
  },
  {
    id: "peer_confirmed",
    label: "Peer-confirmed",
    explanation: "Other artists who were there confirmed it.",
    detail:
      "Artists who were there confirmed it through the artist's share link, each with a trust score (100, 75, 50 or 25). It is confirmed once the scores of different artists add up to at least 100.",
  },
  {
    id: "client_verified",
    label: "Client-verified",
    explanation: "Booked and completed here, and rated by its client.",
    detail:
      "A client booked the artist on GigLedger, the gig took place, and the client rated it. Nobody logged it by hand.",
  },
  {
    id: "lineup_verified",
    label: "Lineup-verified",
    explanation: "Everyone who joined the lineup confirmed it took place.",
    detail:
      "The artist planned it ahead, other artists joined it as collaborators, and after it started every one of them confirmed it took place as logged. One decline is enough to stop it.",
  },
] as const;

export type VerificationLevel = (typeof VERIFICATION_LEVELS)[number]["id"];
type VerificationLevelInfo = (typeof VERIFICATION_LEVELS)[number];

export const LEVEL_INFO = Object.fromEntries(VERIFICATION_LEVELS.map((l) => [l.id, l])) as Record<
  VerificationLevel,
  VerificationLevelInfo
>;

/** Ladder order: a higher rung wins when a session qualifies for several. */
export const levelRank = (level: VerificationLevel) =>
  VERIFICATION_LEVELS.findIndex((l) => l.id === level);

/** Peer-confirmed: the trust scores of distinct verifiers add up to at least this. */
export const PEER_THRESHOLD = 100;

/** How a verifier is named: an artist's name, or "the client" for a booking. */
const CLIENT_VERIFIER_NAME = "the client";

/** Who vouched for a session's level, and when. `artistSlug` is null for the client. */
export type Verifier = { name: string; artistSlug: string | null; at: Date };

/** A session's level, who reached it and when (null when Self-logged). */
export type SessionLevel = {
  level: VerificationLevel;
  verifiers: Verifier[];
  reachedAt: Date | null;
};

/** The rows that prove a session's level, already read. */
export type LevelFacts = {
  /** Set when the session was logged from a booking its client rated; when it was rated. */
  clientRatedAt: Date | null;
  /** Peer verifications, any order. */
  peers: { name: string; artistSlug: string; trustScore: number; at: Date }[];
  /** Collaborators who joined before the start, with their lineup answer if they gave one. */
  lineup: {
    name: string;
    artistSlug: string;
    answer: "confirmed" | "declined" | null;
    at: Date | null;
  }[];
};

/**
 * The level the rows prove, highest rung first: Lineup-verified (every joined collaborator, at
 * least one, confirmed), then Client-verified, then Peer-confirmed, else Self-logged.
 */
export function levelOf(facts: LevelFacts): SessionLevel {
  const { lineup } = facts;
  if (lineup.length > 0 && lineup.every((c) => c.answer === "confirmed" && c.at)) {
    const verifiers = lineup
      .map((c) => ({ name: c.name, artistSlug: c.artistSlug, at: c.at as Date }))
      .sort((a, b) => a.at.getTime() - b.at.getTime());
    return { level: "lineup_verified", verifiers, reachedAt: verifiers.at(-1)?.at ?? null };
  }
  if (facts.clientRatedAt) {
    return {
      level: "client_verified",
      verifiers: [{ name: CLIENT_VERIFIER_NAME, artistSlug: null, at: facts.clientRatedAt }],
      reachedAt: facts.clientRatedAt,
    };
  }
  const peers = [...facts.peers].sort((a, b) => a.at.getTime() - b.at.getTime());
  let sum = 0;
  for (const peer of peers) {
    sum += peer.trustScore;
    if (sum >= PEER_THRESHOLD) {
      return {
        level: "peer_confirmed",
        verifiers: peers.map(({ name, artistSlug, at }) => ({ name, artistSlug, at })),
        reachedAt: peer.at,
      };
    }
  }
  return { level: "self_logged", verifiers: [], reachedAt: null };
}

/** "A", "A and B", "A, B and C". */
function listNames(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Who verified a session and when, in words: "Verified by Asha Rao and Ravi on Nov 21, 2026",
 * "Verified by the client on Nov 21, 2026"; null when Self-logged. `formatDay` turns the instant
 * into the artist's calendar day (passed in, so this stays free of any date library choice).
 */
export function verifiedByText(
  level: SessionLevel,
  formatDay: (at: Date) => string,
): string | null {
  if (level.level === "self_logged" || !level.reachedAt) return null;
  const names = [...new Set(level.verifiers.map((v) => v.name))];
  return `Verified by ${listNames(names)} on ${formatDay(level.reachedAt)}`;
}
