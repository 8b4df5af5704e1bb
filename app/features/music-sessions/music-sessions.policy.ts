import type { Actor } from "~/lib/actor";

/** Who may do what with a musical session: pure rules, used by the server and the UI alike. */
export type OwnedSession = { artistProfileId: string };

/** Only the owner edits a session: deletes it, uploads or removes media, shares it. */
export function canEditSession(actor: Actor, session: OwnedSession): boolean {
  return Boolean(actor?.artistProfileId) && actor?.artistProfileId === session.artistProfileId;
}

/** Logging a session needs an artist profile. */
export function canLogSession(actor: Actor): boolean {
  return Boolean(actor?.artistProfileId);
}

/** What decides whether a session is still only the artist's own word. */
type SessionVerificationState = OwnedSession & {
  isVerified: boolean;
  /** Peer verifications given, whether or not they add up to verified yet. */
  peerVerifications: number;
  /** Participants whose part is verified (a collaborator who joined is verified at once). */
  verifiedParticipants: number;
};

/** Self-logged: nobody but the artist has vouched for the session yet. */
export function isSelfLogged(session: Omit<SessionVerificationState, "artistProfileId">): boolean {
  return (
    !session.isVerified && session.peerVerifications === 0 && session.verifiedParticipants === 0
  );
}

/**
 * The owner edits a session's title, description, location, instruments, genres and tags at any
 * time (see docs/product.md, Sessions).
 */
export function canEditSessionDetails(actor: Actor, session: OwnedSession): boolean {
  return canEditSession(actor, session);
}

/**
 * The facts others vouch for (type, date, time, duration and venue) change only while the session
 * is self-logged, and only by its owner: once anyone has verified it, they are locked.
 */
export function canChangeSessionSchedule(actor: Actor, session: SessionVerificationState): boolean {
  return canEditSession(actor, session) && isSelfLogged(session);
}

/** A start time in the future is a planned session (others join); a past one can be verified. */
export type SharingMode = "collaboration" | "verification";
export function sharingModeOf(session: { startTime: Date }, now: Date = new Date()): SharingMode {
  return session.startTime.getTime() > now.getTime() ? "collaboration" : "verification";
}

/** What decides whether an artist may answer "did it take place as logged?" for a session. */
export type LineupState = {
  startTime: Date;
  durationMinutes: number;
  /** The viewer joined the session as a collaborator before it started. */
  joined: boolean;
  /** The viewer's answer already given, if any (one answer each, kept). */
  answer: "confirmed" | "declined" | null;
};

/** When a session is over: its start plus its duration. */
export const sessionEndOf = (session: { startTime: Date; durationMinutes: number }) =>
  new Date(session.startTime.getTime() + session.durationMinutes * 60_000);

/**
 * Lineup confirmation: once a planned session has ended (start + duration), each artist who
 * joined it as a collaborator answers once whether it took place as logged (docs/product.md,
 * "Verification"; only after the fact, docs/decisions/046).
 */
export function canAnswerLineup(
  actor: Actor,
  lineup: LineupState,
  now: Date = new Date(),
): boolean {
  return (
    Boolean(actor?.artistProfileId) &&
    lineup.joined &&
    lineup.answer === null &&
    sessionEndOf(lineup).getTime() <= now.getTime()
  );
}
