import type { Actor, OwnedSession } from "~/features/music-sessions/music-sessions.policy";

export { canEditSession as canShareSession } from "~/features/music-sessions/music-sessions.policy";

/** Joining or verifying needs an artist profile, and never one's own session. */
export function canJoinSession(actor: Actor, session: OwnedSession): boolean {
  return Boolean(actor?.artistProfileId) && actor?.artistProfileId !== session.artistProfileId;
}
