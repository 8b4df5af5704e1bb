import { and, eq } from "drizzle-orm";
import type { SharingMode } from "~/features/music-sessions/music-sessions.policy";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { peerVerifications, sessionParticipants } from "~db/schema";

/** Whether the actor already joined (collaboration) or verified (verification) the session. */
export async function hasUsedLinkOn(
  { db }: Pick<AppContext, "db">,
  actor: Actor,
  input: { sessionId: string; mode: SharingMode },
) {
  const artistId = actor?.artistProfileId;
  if (!artistId) return false;
  const { sessionId, mode } = input;
  const rows =
    mode === "collaboration"
      ? await db
          .select({ id: sessionParticipants.id })
          .from(sessionParticipants)
          .where(
            and(
              eq(sessionParticipants.sessionId, sessionId),
              eq(sessionParticipants.artistProfileId, artistId),
              eq(sessionParticipants.participationType, "collaborator"),
            ),
          )
      : await db
          .select({ id: peerVerifications.id })
          .from(peerVerifications)
          .where(
            and(
              eq(peerVerifications.sessionId, sessionId),
              eq(peerVerifications.verifiedByArtistId, artistId),
            ),
          );
  return rows.length > 0;
}
