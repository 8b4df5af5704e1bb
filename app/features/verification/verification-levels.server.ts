import { and, eq, inArray, sql } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import { type Queryable, readEach } from "~db/client";
import {
  artistProfiles,
  bookings,
  lineupConfirmations,
  musicSessions,
  peerVerifications,
  sessionParticipants,
} from "~db/schema";
import { type LevelFacts, levelOf, type SessionLevel } from "./verification-levels";

/**
 * Each session's verification level, derived from the rows that prove it (never stored by hand):
 * a rated booking, peer verifications, the joined lineup's answers. Any number of sessions in
 * three queries. Sessions that do not exist are left out of the map. Public: the level, the
 * verifiers' names and the dates are shown to everyone.
 */
export async function sessionLevels(
  { db }: { db: Queryable },
  sessionIds: readonly string[],
): Promise<Map<string, SessionLevel>> {
  const ids = [...new Set(sessionIds.filter(isUuid))];
  const out = new Map<string, SessionLevel>();
  if (ids.length === 0) return out;
  const [sessions, peers, lineup] = await readEach(db, [
    () =>
      db
        .select({
          id: musicSessions.id,
          // The session is inserted in the rating's own transaction: its creation is the rating.
          clientRatedAt: sql<Date | null>`CASE WHEN ${bookings.ratingGiven} THEN ${musicSessions.createdAt} END`,
        })
        .from(musicSessions)
        .leftJoin(bookings, eq(bookings.id, musicSessions.bookingId))
        .where(inArray(musicSessions.id, ids)),
    () =>
      db
        .select({
          sessionId: peerVerifications.sessionId,
          name: artistProfiles.artistName,
          artistSlug: artistProfiles.slug,
          trustScore: peerVerifications.trustScore,
          at: peerVerifications.createdAt,
        })
        .from(peerVerifications)
        .innerJoin(artistProfiles, eq(artistProfiles.id, peerVerifications.verifiedByArtistId))
        .where(inArray(peerVerifications.sessionId, ids)),
    () =>
      db
        .select({
          sessionId: sessionParticipants.sessionId,
          name: artistProfiles.artistName,
          artistSlug: artistProfiles.slug,
          answer: lineupConfirmations.answer,
          at: lineupConfirmations.createdAt,
        })
        .from(sessionParticipants)
        .innerJoin(artistProfiles, eq(artistProfiles.id, sessionParticipants.artistProfileId))
        .leftJoin(
          lineupConfirmations,
          and(
            eq(lineupConfirmations.sessionId, sessionParticipants.sessionId),
            eq(lineupConfirmations.artistProfileId, sessionParticipants.artistProfileId),
          ),
        )
        .where(
          and(
            inArray(sessionParticipants.sessionId, ids),
            eq(sessionParticipants.participationType, "collaborator"),
          ),
        ),
  ]);
  const facts = new Map<string, LevelFacts>();
  for (const s of sessions) {
    const ratedAt = s.clientRatedAt === null ? null : new Date(s.clientRatedAt);
    facts.set(s.id, { clientRatedAt: ratedAt, peers: [], lineup: [] });
  }
  for (const { sessionId, ...peer } of peers) facts.get(sessionId)?.peers.push(peer);
  for (const { sessionId, ...member } of lineup) facts.get(sessionId)?.lineup.push(member);
  for (const [id, f] of facts) out.set(id, levelOf(f));
  return out;
}

/** One session's level (Self-logged for an unknown id). */
export async function sessionLevel(ctx: { db: Queryable }, sessionId: string) {
  return (
    (await sessionLevels(ctx, [sessionId])).get(sessionId) ?? {
      level: "self_logged" as const,
      verifiers: [],
      reachedAt: null,
    }
  );
}
