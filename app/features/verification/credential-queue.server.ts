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
 * A confirmation between two artists can change the level of their other sessions too (the pair
 * and ring rules of docs/decisions/046): adds a job for each of their sessions that anyone has
 * confirmed or that is counted verified.
 */
export async function queueArtistsCredentialRefresh(
  tx: Queryable,
  artistProfileIds: readonly string[],
): Promise<void> {
  for (const artistId of new Set(artistProfileIds)) {
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
