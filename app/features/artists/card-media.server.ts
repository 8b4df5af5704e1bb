import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { queryRowsPrepared, uuidArray } from "~db/client";

/** An artist's cover photo and featured clip as a card or the profile shows them. */
export type CardMedia = {
  /** Stored path of the cover photo (its preview when there is one). */
  coverPath: string | null;
  /** Stored path of the featured audio clip, and what to call it. */
  clipPath: string | null;
  clipTitle: string | null;
};

/**
 * The cover photos and featured clips of the page's artists (chosen in the portfolio manager),
 * read for those ids only, by primary key. Public: the media are of the artists' public sessions.
 */
export async function cardMedia(
  ctx: Pick<AppContext, "db">,
  ids: string[],
): Promise<Record<string, CardMedia>> {
  const artists = ids.filter(isUuid);
  if (artists.length === 0) return {};
  const rows = await queryRowsPrepared<{
    id: string;
    cover_path: string | null;
    clip_path: string | null;
    clip_title: string | null;
  }>(
    ctx.db,
    sql`SELECT a.id, coalesce(cover.preview_path, cover.file_path) AS cover_path,
          clip.file_path AS clip_path, coalesce(clip.description, s.title) AS clip_title
        FROM artist_profiles a
        LEFT JOIN session_media cover ON cover.id = a.cover_media_id
        LEFT JOIN session_media clip ON clip.id = a.featured_clip_id
        LEFT JOIN music_sessions s ON s.id = clip.session_id
        WHERE a.id = ANY(${uuidArray(artists)})
          AND (a.cover_media_id IS NOT NULL OR a.featured_clip_id IS NOT NULL)`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      r.id,
      { coverPath: r.cover_path, clipPath: r.clip_path, clipTitle: r.clip_title },
    ]),
  );
}
