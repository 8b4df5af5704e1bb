import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import { queryRows } from "~db/client";
import { DISCOVERY_PAGE_SIZE } from "./artists.constants";
import type { DiscoveryQuery } from "./artists.schema";

// The words' walk (decision 065): a page of a words search read in rating order from the
// signatures' indexes, for discovery.server.ts's searches.

/** The words of a search as a full-text query (English stems; quotes, "or" and -words work). */
export const wordsQuery = (q: string) => sql`websearch_to_tsquery('english', ${q})`;

/**
 * The most artists the words' walk passes over: about 2 ms from the index alone. Words that find
 * fewer than a page among the first ones (rare words, a typo) are found the planner's way instead.
 */
const WALK_LIMIT = 10_000;

/**
 * The words' walk, best rated first (decision 065): `FROM … WHERE … ORDER BY` over the first
 * WALK_LIMIT artists in rating order (within the location when there is one), read from an index
 * that also holds each artist's signatures. An artist whose signatures lack a bit of the words'
 * masks cannot match and is passed over without reading its row; each other one is read by id
 * and tested against all of `conditions` (the words among them), so the signatures only ever save
 * work, never change what is found. The artist's row is `artist_profiles` to `conditions` and the
 * SELECT. Used through walkedOrPlanned.
 */
export function wordsWalk(query: DiscoveryQuery, conditions: SQL): SQL {
  const within = query.location ? sql`WHERE location = ${query.location}` : sql``;
  return sql`FROM (SELECT id, rating, search_bits, name_bits FROM artist_profiles ${within}
      ORDER BY rating DESC NULLS LAST, id LIMIT ${WALK_LIMIT}) walk
    CROSS JOIN LATERAL (SELECT * FROM artist_profiles
      WHERE artist_profiles.id = walk.id AND ${conditions} OFFSET 0) artist_profiles
    WHERE ${signaturesMayMatch(query, sql`walk.search_bits`, sql`walk.name_bits`)}
    ORDER BY walk.rating DESC NULLS LAST, walk.id`;
}

/**
 * Whether an artist with these signatures may match the words and the occasion of `query`: false
 * only when they lack a bit of a mask (the words', or the "contains" pattern's; the occasion's
 * words, which the search document holds for each of the artist's occasions), so an artist the
 * search finds always passes. For the walk, and for a day's marks, which carry their artist's
 * signatures (decision 067). Each mask is written once ("no bit of it missing"): it is computed
 * while planning.
 */
export function signaturesMayMatch(
  query: Pick<DiscoveryQuery, "q" | "occasion">,
  searchBits: SQL,
  nameBits: SQL,
): SQL {
  const words = sql`search_query_bits(${wordsQuery(query.q)})`;
  const contains = sql`search_contains_bits(${query.q})`;
  const occasion = query.occasion
    ? sql` AND (~${searchBits} & search_query_bits(plainto_tsquery('english', ${query.occasion}))) = 0`
    : sql``;
  return sql`(((~${searchBits} & ${words}) = 0 OR (~${nameBits} & ${contains}) = 0)${occasion})`;
}

/**
 * A page of a words search: the walk's (`walked`) when it found the page and one more, else the
 * same page as PostgreSQL plans it (`planned`), which it does best for rare words. The walk
 * passing over at most WALK_LIMIT artists bounds what trying it costs.
 */
export async function walkedOrPlanned<T extends Record<string, unknown>>(
  db: AppContext["db"],
  walked: SQL,
  planned: SQL,
): Promise<T[]> {
  const rows = await queryRows<T>(db, walked);
  return rows.length > DISCOVERY_PAGE_SIZE ? rows : queryRows<T>(db, planned);
}
