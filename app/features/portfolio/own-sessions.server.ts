import { eq } from "drizzle-orm";
import type { Queryable } from "~db/client";
import { musicSessions } from "~db/schema";

/**
 * The ids of the sessions an artist owns, as a subquery: their media are the artist's own to
 * feature or to choose as cover and clip (never media of sessions they only joined).
 */
export const ownSessionIds = (db: Queryable, artistId: string) =>
  db
    .select({ id: musicSessions.id })
    .from(musicSessions)
    .where(eq(musicSessions.artistProfileId, artistId));
