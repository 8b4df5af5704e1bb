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

/** A start time in the future is a planned session (others join); a past one can be verified. */
export type SharingMode = "collaboration" | "verification";
export function sharingModeOf(session: { startTime: Date }, now: Date = new Date()): SharingMode {
  return session.startTime.getTime() > now.getTime() ? "collaboration" : "verification";
}
