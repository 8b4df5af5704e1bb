import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { queryRows } from "~db/client";
import { EVENT_TYPES } from "~db/enums";
import { GENRES, LOCATIONS } from "./artists.constants";

// The discovery filters' values and how many artists each finds (the facets), counted off a
// page's path: each instance keeps its last counts and counts again in the background. Also what
// profile set-up suggests for genre and location. The search itself is discovery.server.ts's.

type Ctx = Pick<AppContext, "db">;

/** A filter value artists have, and how many artists the filter finds with it. */
export type Facet = { value: string; count: number };
export type DiscoveryFacets = { genres: Facet[]; locations: Facet[]; occasions: Facet[] };

/** The most used values offered per filter (free text can hold many rare ones). */
export const FACET_LIMIT = 100;
/** Genre values read to merge spellings and sum "contains" counts before keeping FACET_LIMIT. */
const GENRE_VALUES_READ = 1000;
/** How long an instance reuses the counts; its own profile writes refresh them at once. */
export const FACET_TTL_MS = 60_000;

/**
 * The two counts behind the filters, over every artist (not the page's matches, so the lists stay
 * put while the visitor types). Locations walk an index that leads with location (the planner
 * takes the narrowest, artist_profiles_location_rate_idx): each distinct value is found with one
 * index probe past the last (a "skip scan"), then counted from the index alone,
 * so the table itself is never read; genres walk artist_profiles_genre_value_idx the same way.
 * getDiscoveryFacets keeps both counts out of the request path. Exported for the plan test and
 * the bench.
 */
export function facetQueries(): { genres: SQL; locations: SQL; occasions: SQL } {
  return {
    genres: distinctValuesWithCounts(sql.raw("genre"), GENRE_VALUES_READ),
    locations: distinctValuesWithCounts(sql.raw("location"), FACET_LIMIT),
    // Each distinct set of occasions (at most 2^6) with its count; occasionFacets sums them.
    occasions: distinctValuesWithCounts(sql.raw("occasions"), 2 ** EVENT_TYPES.length),
  };
}

/** Per occasion, the artists whose set holds it, in the booking form's order; none are left out. */
export function occasionFacets(sets: { value: string[]; count: number }[]): Facet[] {
  return EVENT_TYPES.map((value) => ({
    value,
    count: sets.reduce((sum, s) => (s.value.includes(value) ? sum + s.count : sum), 0),
  }));
}

/** Each distinct value of an indexed column by index skips, with a count per value, most first. */
function distinctValuesWithCounts(column: SQL, limit: number): SQL {
  return sql`
    WITH RECURSIVE distinct_values(value) AS (
      SELECT min(${column}) FROM artist_profiles
      UNION ALL
      SELECT (SELECT min(${column}) FROM artist_profiles WHERE ${column} > d.value)
      FROM distinct_values d WHERE d.value IS NOT NULL
    )
    SELECT value,
      (SELECT count(*) FROM artist_profiles a WHERE a.${column} = d.value)::int AS count
    FROM distinct_values d
    WHERE value IS NOT NULL
    ORDER BY count DESC, value
    LIMIT ${limit}`;
}

const byName = (a: Facet, b: Facet) =>
  a.value.localeCompare(b.value, "en", { sensitivity: "base" }) ||
  (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/**
 * The genre filter matches "contains, any case" (see searchArtists), so a value's count is the
 * number of artists whose genre contains it: "Jazz" counts "Smooth Jazz" too, exactly what
 * choosing it finds. Spellings that differ only in case are one value (the most used spelling).
 */
export function genreFacets(rows: Facet[], limit = FACET_LIMIT): Facet[] {
  const merged = new Map<string, { value: string; top: number; count: number }>();
  for (const row of rows) {
    const key = row.value.toLowerCase();
    const entry = merged.get(key);
    if (!entry) merged.set(key, { value: row.value, top: row.count, count: row.count });
    else {
      entry.count += row.count;
      if (row.count > entry.top) Object.assign(entry, { value: row.value, top: row.count });
    }
  }
  const values = [...merged.entries()];
  return values
    .map(([key, { value, count }]) => ({
      value,
      own: count,
      count: values.reduce((sum, [other, o]) => (other.includes(key) ? sum + o.count : sum), 0),
    }))
    .sort((a, b) => b.own - a.own || byName(a, b))
    .slice(0, limit)
    .map(({ value, count }) => ({ value, count }))
    .sort(byName);
}

/** The filters' values and counts, read now (the bench measures this). */
export async function countDiscoveryFacets(ctx: Ctx): Promise<DiscoveryFacets> {
  const queries = facetQueries();
  const [genres, locations, occasions] = await Promise.all([
    queryRows<Facet>(ctx.db, queries.genres),
    queryRows<Facet>(ctx.db, queries.locations),
    queryRows<{ value: string[]; count: number }>(ctx.db, queries.occasions),
  ]);
  return {
    genres: genreFacets(genres),
    locations: [...locations].sort(byName),
    occasions: occasionFacets(occasions),
  };
}

/**
 * What profile setup suggests for genre and location: the values artists use (most used first),
 * then the usual ones nobody has used yet. Public.
 */
export async function getProfileSuggestions(
  ctx: Ctx,
  viewer: Actor,
): Promise<{ genres: string[]; locations: string[] }> {
  const facets = await getDiscoveryFacets(ctx, viewer);
  const mostUsed = (list: Facet[], usual: readonly string[]) => {
    const values = [...list].sort((a, b) => b.count - a.count).map((f) => f.value);
    const seen = new Set(values.map((v) => v.toLowerCase()));
    return [...values, ...usual.filter((v) => !seen.has(v.toLowerCase()))];
  };
  return {
    genres: mostUsed(facets.genres, GENRES),
    locations: mostUsed(facets.locations, LOCATIONS),
  };
}

type FacetEntry = { at: number; facets: Promise<DiscoveryFacets>; refreshing?: boolean };
const facetCache = new WeakMap<object, FacetEntry>();

/** A profile was created or changed here: the next discovery page counts again. */
export function forgetFacets(ctx: Ctx) {
  facetCache.delete(ctx.db);
}

function countInto(ctx: Ctx, now: number): FacetEntry {
  const entry: FacetEntry = { at: now, facets: countDiscoveryFacets(ctx) };
  facetCache.set(ctx.db, entry);
  entry.facets.catch(() => {
    if (facetCache.get(ctx.db) === entry) facetCache.delete(ctx.db);
  });
  return entry;
}

/**
 * The values artists actually have in the genre and location filters, with counts: the most used
 * FACET_LIMIT of each, shown alphabetically. Counting is a GROUP BY over every artist (about half
 * a second at a million), so an instance counts once, then serves its last counts and recounts in
 * the background once they are FACET_TTL_MS old; its own profile writes make the next call count
 * afresh. A discovery page therefore costs only its search. Public.
 */
export async function getDiscoveryFacets(
  ctx: Ctx,
  _viewer: Actor,
  { now = Date.now() }: { now?: number } = {},
): Promise<DiscoveryFacets> {
  const cached = facetCache.get(ctx.db);
  if (!cached) return countInto(ctx, now).facets;
  if (now - cached.at >= FACET_TTL_MS && !cached.refreshing) {
    cached.refreshing = true;
    const next = countDiscoveryFacets(ctx);
    next.then(
      () => {
        if (facetCache.get(ctx.db) === cached) facetCache.set(ctx.db, { at: now, facets: next });
      },
      () => {
        cached.refreshing = false;
      },
    );
  }
  return cached.facets;
}
