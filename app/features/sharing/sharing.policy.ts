import type { OwnedSession } from "~/features/music-sessions/music-sessions.policy";
import type { Actor } from "~/lib/actor";

/** Sharing a session is editing it: only its owner makes links. */
export { canEditSession as canShareSession } from "~/features/music-sessions/music-sessions.policy";

/** Joining or verifying needs an artist profile, and never one's own session. */
export function canJoinSession(actor: Actor, session: OwnedSession): boolean {
  return Boolean(actor?.artistProfileId) && actor?.artistProfileId !== session.artistProfileId;
}
