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
  // Any of the words: their stems as an OR query ("wedding sitar" → 'wed' | 'sitar'). The name,
  // genre and instruments, and the occasions, are read from the search document's parts (weights
  // A and B, migration 0026) instead of parsed again, and so is the bio: its part C holds the bio
  // and the session titles, so the bio is parsed only when a title holds the words too. Parsing
  // the three texts of 24 artists took 1.5 ms of a page at a million artists; this takes 0.4.
  // discovery-text.integration.test.ts checks each part (a bio without the words beside titles
  // with them among them); a change to the document's weights must change this too.
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
          ts_filter(a.search_document, '{a}') @@ w.q AS profile,
          ts_filter(a.search_document, '{b}') @@ w.q AS occasions,
          CASE WHEN NOT ts_filter(a.search_document, '{c}') @@ w.q THEN false
            WHEN titles.sessions = 0 THEN true
            ELSE to_tsvector('english', a.bio) @@ w.q END AS bio,
          titles.sessions,
          (SELECT count(*)::int FROM bookings b
            WHERE b.artist_profile_id = a.id AND b.review IS NOT NULL
              AND to_tsvector('english', b.review) @@ w.q) AS reviews
        FROM artist_profiles a CROSS JOIN words w
        CROSS JOIN LATERAL (SELECT count(*)::int AS sessions FROM music_sessions s
          WHERE s.artist_profile_id = a.id AND to_tsvector('english', s.title) @@ w.q) titles
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
