import { sql } from "drizzle-orm";
import { enqueueJob } from "~/lib/jobs.server";
import { type Queryable, queryRows } from "~db/client";

/** The job queue of sessions whose credential may need signing, re-signing or revoking. */
export const CREDENTIAL_REFRESH_QUEUE = "credentials.refresh-session";

/**
 * Adds a job to bring a session's credential in line with its level, in the caller's
 * transaction: call it from every write that may change a session's level (a peer verification,
 * a rating, a deletion, a withdrawn verification). The credentials feature's job signs or
 * revokes once the transaction has committed. Deletes that the database cascades add the job by
 * trigger (migrations 0009 and 0014).
 */
export async function queueCredentialRefresh(tx: Queryable, sessionId: string): Promise<void> {
  await enqueueJob(tx, { queue: CREDENTIAL_REFRESH_QUEUE, key: sessionId });
}

/**
 * A confirmation of `owner`'s session by `confirmer` can change the level of other sessions too
 * (the pair and ring rules of docs/decisions/046): the two artists' own, those of every artist
 * both have a confirmation with (the third member of a ring of three it closes), and those the
 * owner confirmed (the owner now stands on someone more). Adds a job for each of those artists'
 * sessions that anyone has confirmed or that is counted verified.
 */
export async function queueArtistsCredentialRefresh(
  tx: Queryable,
  { owner, confirmer }: { owner: string; confirmer: string },
): Promise<void> {
  const artists = new Set([owner, confirmer]);
  if (owner !== confirmer) {
    for (const { id } of await commonNeighbours(tx, owner, confirmer)) artists.add(id);
    for (const { id } of await confirmedBy(tx, owner)) artists.add(id);
  }
  for (const artistId of artists) {
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`SELECT s.id FROM music_sessions s WHERE s.artist_profile_id = ${artistId}
          AND (s.is_verified
            OR EXISTS (SELECT 1 FROM peer_verifications p WHERE p.session_id = s.id)
            OR EXISTS (SELECT 1 FROM lineup_confirmations l WHERE l.session_id = s.id))`,
    );
    for (const { id } of rows) await queueCredentialRefresh(tx, id);
  }
}

/** The artists whose sessions `artist` confirmed. */
function confirmedBy(tx: Queryable, artist: string) {
  return queryRows<{ id: string }>(
    tx,
    sql`SELECT s.artist_profile_id::text AS id
        FROM peer_verifications p JOIN music_sessions s ON s.id = p.session_id
        WHERE p.verified_by_artist_id = ${artist}
      UNION
      SELECT s.artist_profile_id::text
        FROM lineup_confirmations l JOIN music_sessions s ON s.id = l.session_id
        WHERE l.artist_profile_id = ${artist}`,
  );
}

/** Artists with a confirmation (either way) with both `a` and `b`. */
function commonNeighbours(tx: Queryable, a: string, b: string) {
  return queryRows<{ id: string }>(
    tx,
    sql`WITH edges AS (
        SELECT p.verified_by_artist_id AS x, s.artist_profile_id AS y
        FROM peer_verifications p JOIN music_sessions s ON s.id = p.session_id
        WHERE s.artist_profile_id IN (${a}, ${b}) OR p.verified_by_artist_id IN (${a}, ${b})
        UNION
        SELECT l.artist_profile_id, s.artist_profile_id
        FROM lineup_confirmations l JOIN music_sessions s ON s.id = l.session_id
        WHERE s.artist_profile_id IN (${a}, ${b}) OR l.artist_profile_id IN (${a}, ${b})
      ), near AS (
        SELECT x AS artist, y AS other FROM edges UNION SELECT y, x FROM edges
      )
      SELECT n1.other::text AS id FROM near n1 JOIN near n2 ON n2.other = n1.other
      WHERE n1.artist = ${a} AND n2.artist = ${b} AND n1.other NOT IN (${a}, ${b})`,
  );
}
