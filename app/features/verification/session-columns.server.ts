import { eq } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { Queryable } from "~db/client";
import { artistProfiles, musicSessions } from "~db/schema";

/**
 * A session as its page, its sharing link and its credential name it: what it was, when and for
 * how long (a wall-clock start in its owner's zone), where, and whose. Select it from
 * `music_sessions` joined to its owner's `artist_profiles` row; each read adds only the columns it
 * needs besides.
 */
export const sessionWithOwnerColumns = {
  id: musicSessions.id,
  artistProfileId: musicSessions.artistProfileId,
  artistName: artistProfiles.artistName,
  timeZone: artistProfiles.timeZone,
  title: musicSessions.title,
  sessionType: musicSessions.sessionType,
  startTime: musicSessions.startTime,
  durationMinutes: musicSessions.durationMinutes,
  location: musicSessions.location,
};

/** One session with its owner (`sessionWithOwnerColumns` and `more`): no row when there is none. */
export function sessionWithOwner<More extends SelectedFields>(
  db: Queryable,
  sessionId: string,
  more: More,
) {
  return db
    .select({ ...sessionWithOwnerColumns, ...more })
    .from(musicSessions)
    .innerJoin(artistProfiles, eq(artistProfiles.id, musicSessions.artistProfileId))
    .where(eq(musicSessions.id, sessionId));
}
