import { sql } from "drizzle-orm";
import { enqueueJob } from "~/lib/jobs.server";
import { type Queryable, queryRows } from "~db/client";
import { confirmationsWhere } from "./verification-levels.server";

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
    const around = await confirmationsWhere(
      tx,
      sql`s.artist_profile_id IN (${owner}, ${confirmer}) OR c.artist_id IN (${owner}, ${confirmer})`,
    );
    /** The artists with a confirmation, either way, with `artist`. */
    const neighbours = (artist: string) =>
      new Set(
        around.flatMap((r) =>
          r.artistId === artist ? [r.ownerId] : r.ownerId === artist ? [r.artistId] : [],
        ),
      );
    const ofConfirmer = neighbours(confirmer);
    for (const id of neighbours(owner)) if (ofConfirmer.has(id)) artists.add(id);
    for (const r of around) if (r.artistId === owner) artists.add(r.ownerId);
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
