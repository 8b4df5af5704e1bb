import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { queryRowsPrepared, uuidArray } from "~db/client";
import type { SearchMatch } from "./match-text";

// Why a text search found an artist: which parts of their profile and history hold its words, for
// the line on the discovery card (docs/product.md, "Discovery"). Read for the page's artists only.

/**
 * For each artist of `ids`, where the words of `q` appear (any of them, English stems, as the
 * search matches them): the name, genre or instruments; the occasions; the bio; how many session
 * titles; how many reviews. Public (each part is on the public profile).
 */
export async function searchMatches(
  ctx: Pick<AppContext, "db">,
  q: string,
  ids: string[],
): Promise<Record<string, SearchMatch>> {
  const artists = ids.filter(isUuid);
  if (!q || q.includes("\u0000") || artists.length === 0) return {};
  // Any of the words: their stems as an OR query ("wedding sitar" → 'wed' | 'sitar').
  const rows = await queryRowsPrepared<{
    id: string;
    profile: boolean;
    occasions: boolean;
    bio: boolean;
    sessions: number;
    reviews: number;
  }>(
    ctx.db,
    sql`WITH words AS (
          SELECT to_tsquery('simple', coalesce(string_agg(quote_literal(word), ' | '), '')) AS q
          FROM unnest(tsvector_to_array(to_tsvector('english', ${q}))) word
        )
        SELECT a.id,
          to_tsvector('english', a.artist_name || ' ' || a.genre || ' ' || a.instruments) @@ w.q AS profile,
          to_tsvector('english', array_to_string(a.occasions, ' ')) @@ w.q AS occasions,
          to_tsvector('english', a.bio) @@ w.q AS bio,
          (SELECT count(*)::int FROM music_sessions s
            WHERE s.artist_profile_id = a.id AND to_tsvector('english', s.title) @@ w.q) AS sessions,
          (SELECT count(*)::int FROM bookings b
            WHERE b.artist_profile_id = a.id AND b.review IS NOT NULL
              AND to_tsvector('english', b.review) @@ w.q) AS reviews
        FROM artist_profiles a, words w
        WHERE a.id = ANY(${uuidArray(artists)})`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      r.id,
      {
        profile: r.profile,
        occasions: r.occasions,
        bio: r.bio,
        sessions: r.sessions,
        reviews: r.reviews,
      },
    ]),
  );
}
