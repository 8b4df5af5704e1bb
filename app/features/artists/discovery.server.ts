import { and, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { freeOnDateSql } from "~/features/availability/availability.server";
import { getTrustFigures } from "~/features/trust/trust.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { queryRows } from "~db/client";
import { EVENT_TYPES } from "~db/enums";
import { artistProfiles } from "~db/schema";
import { type ArtistSummary, summaryColumns } from "./artist-summary.server";
import { DISCOVERY_PAGE_SIZE, FREE_COUNT_LIMIT, GENRES, LOCATIONS } from "./artists.constants";
import type { DiscoveryQuery } from "./artists.schema";
import { cardMedia } from "./card-media.server";
import { searchMatches } from "./search-matches.server";
import {
  everyMatchFirst,
  matchesParts,
  once,
  signaturesMayMatch,
  walkedOrPlanned,
  walkServes,
  wordsQuery,
  wordsWalk,
} from "./words-walk.server";

// Finding artists: the landing page's featured ones, the discovery search and its filters' values
// (with the cache that keeps counting them off a page's path). Profiles themselves, and the writes
// that change them, are artists.server.ts's.

type Ctx = Pick<AppContext, "db">;

/**
 * The landing page's featured artists: most verified sessions first, then the best rated. Public:
 * every viewer sees the same.
 */
export async function getFeaturedArtists(
  ctx: Ctx,
  _viewer: Actor,
  { limit = 2 }: { limit?: number } = {},
): Promise<ArtistSummary[]> {
  return ctx.db
    .select(summaryColumns)
    .from(artistProfiles)
    .orderBy(
      descNullsLast(artistProfiles.verifiedSessions),
      descNullsLast(artistProfiles.rating),
      artistProfiles.id,
    )
    .limit(limit);
}

/**
 * `DESC NULLS LAST`, exactly as the indexes are built: a plain DESC means NULLS FIRST, which no
 * index serves, and PostgreSQL would then sort every match (measured: 2.7 s at 1M artists).
 */
const descNullsLast = (column: AnyPgColumn) => sql`${column} DESC NULLS LAST`;

/** `%text%` for LIKE, with the user's own % _ \ taken literally. */
function containsPattern(text: string) {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** No stored text holds a NUL character (PostgreSQL refuses them), so a query with one matches nothing. */
const hasNul = (text: string) => text.includes("\u0000");

/**
 * The search box and filters as SQL conditions on artist_profiles (see searchArtists). The words
 * match the weighted document (name, genre, instruments, occasions, bio, session titles, reviews)
 * or, for parts of names and typos' neighbours, the trigram index over name, genre and instruments.
 * `generic` for a statement kept with a generic plan (the words' walk, decision 075): the words'
 * query is then worked out once per run, not for each row tested. Where PostgreSQL plans with the
 * words (every match), it needs them as a value to estimate how many match.
 */
function discoveryConditions(query: DiscoveryQuery, { generic = false } = {}): SQL[] {
  const conditions: SQL[] = [];
  if (query.q) {
    const parts = matchesParts(query.q)
      ? sql` OR lower(${artistProfiles.artistName} || ' ' || ${artistProfiles.genre} || ' ' || ${artistProfiles.instruments}) LIKE ${containsPattern(query.q)}`
      : sql``;
    const words = generic ? once(wordsQuery(query.q)) : wordsQuery(query.q);
    conditions.push(sql`(${artistProfiles.searchDocument} @@ ${words}${parts})`);
  }
  if (query.genre)
    conditions.push(sql`lower(${artistProfiles.genre}) LIKE ${containsPattern(query.genre)}`);
  if (query.location) conditions.push(sql`${artistProfiles.location} = ${query.location}`);
  if (query.occasion)
    conditions.push(sql`${artistProfiles.occasions} @> ARRAY[${query.occasion}]::text[]`);
  if (query.budget > 0) {
    // An hourly rate within the budget for the hours; artists who quote each booking have none.
    conditions.push(
      sql`${artistProfiles.hourlyRate} <= ${String(query.budget / query.hours)}::numeric`,
    );
  }
  if (query.clientVerified > 0) {
    // The literal "> 0" lets the planner use artist_profiles_client_verified_idx, which holds
    // only artists with at least one Client-verified gig, whatever N is.
    conditions.push(sql`${artistProfiles.clientVerifiedSessions} > 0`);
    conditions.push(sql`${artistProfiles.clientVerifiedSessions} >= ${query.clientVerified}`);
  }
  if (query.date) {
    const within = query.location ? { location: query.location } : undefined;
    conditions.push(freeOnDateSql(sql`${artistProfiles.id}`, query.date, within));
  }
  return conditions;
}

/** discoveryConditions joined by AND, for the statements written by hand. */
const discoveryWhere = (query: DiscoveryQuery, options?: { generic?: boolean }) =>
  sql.join(discoveryConditions(query, options), sql` AND `);

/** The order of a page: the lowest hourly rate first, or the best rated (ties by id). */
const orderOf = (query: DiscoveryQuery) =>
  query.sort === "price"
    ? [sql`${artistProfiles.hourlyRate} ASC NULLS LAST`, artistProfiles.id]
    : [descNullsLast(artistProfiles.rating), artistProfiles.id];

/** A discovery card: the artist, and whether they marked the searched date available. */
type DiscoveryArtist = ArtistSummary & { markedAvailable: boolean };

/**
 * Discovery: the search matches name, genre or instruments (case-insensitive, one trigram index
 * over the three); the genre filter contains; the location filter is exact. Best rated first.
 * With a date ("Available on"), only artists free that day (`freeOnDateSql`), those who marked it
 * available first. One row more than a page tells whether there is a next page. Public: every
 * viewer sees the same.
 */
export async function searchArtists(
  ctx: Ctx,
  _viewer: Actor,
  query: DiscoveryQuery,
): Promise<{ artists: DiscoveryArtist[]; hasMore: boolean }> {
  if ([query.q, query.genre, query.location].some(hasNul)) return { artists: [], hasMore: false };
  const { db } = ctx;
  const conditions = discoveryConditions(query);
  const offset = (query.page - 1) * DISCOVERY_PAGE_SIZE;
  if (!query.date) {
    if (query.q) return wordsPage(ctx, query, conditions, offset);
    const rows = await db
      .select(summaryColumns)
      .from(artistProfiles)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(...orderOf(query))
      .limit(DISCOVERY_PAGE_SIZE + 1)
      .offset(offset);
    return {
      artists: rows.slice(0, DISCOVERY_PAGE_SIZE).map((a) => ({ ...a, markedAvailable: false })),
      hasMore: rows.length > DISCOVERY_PAGE_SIZE,
    };
  }
  // Two ordered branches, each cut at the end of the asked page: the free artists who marked the
  // date available, read from that day's marks best rated first (each mark carries its artist's
  // location, rating and search signatures, so one index gives them in order, within the location
  // when there is one, and passes over those the words cannot match), then the other free
  // artists best rated first, walking the same indexes as without a date (with words, the words'
  // walk). "Price: low to high" walks each branch by the rate instead (the marks carry it too).
  const upTo = offset + DISCOVERY_PAGE_SIZE + 1;
  const markedIn = query.location ? sql` AND av.artist_location = ${query.location}` : sql``;
  // With words, the marks' copies of the signatures pass over those that cannot match.
  const markedWords = query.q
    ? sql` AND ${signaturesMayMatch(query, sql`av.artist_search_bits`, sql`av.artist_name_bits`)}`
    : sql``;
  const byPrice = query.sort === "price";
  const otherOrder = sql.join(orderOf(query), sql`, `);
  // The marks' own copies of the rating and the rate walk their indexes in order.
  const markedOrder = byPrice
    ? sql`av.artist_hourly_rate ASC NULLS LAST, av.artist_profile_id`
    : sql`av.artist_rating DESC NULLS LAST, av.artist_profile_id`;
  const notMarked = sql`NOT EXISTS (SELECT 1 FROM availability m
            WHERE m.artist_profile_id = artist_profiles.id AND m.date = ${query.date}::date
              AND m.status = 'available')`;
  const page = (where: SQL, others: SQL) =>
    sql`SELECT * FROM (
        (SELECT ${cardColumns}, true AS marked_available
          FROM availability av JOIN artist_profiles ON artist_profiles.id = av.artist_profile_id
          WHERE av.date = ${query.date}::date AND av.status = 'available'${markedIn}${markedWords}
            AND ${where}
          ORDER BY ${markedOrder}
          LIMIT ${upTo})
        UNION ALL
        (SELECT ${cardColumns}, false AS marked_available ${others} LIMIT ${upTo})
      ) free
      ORDER BY marked_available DESC, ${byPrice ? sql`hourly_rate ASC NULLS LAST` : sql`rating DESC NULLS LAST`}, id
      LIMIT ${DISCOVERY_PAGE_SIZE + 1} OFFSET ${offset}`;
  const where = sql.join(conditions, sql` AND `);
  const othersWhere = sql`${where} AND ${notMarked}`;
  // With words, the other artists come from the words' walk if it can, else from every match.
  type Row = CardRow & { marked_available: boolean };
  let rows: Row[];
  if (query.q && walkServes(query)) {
    const walkWhere = discoveryWhere(query, { generic: true });
    rows = await walkedOrPlanned<Row>(
      ctx,
      query,
      page(walkWhere, wordsWalk(query, sql`${walkWhere} AND ${notMarked}`)),
      page(where, everyMatchFirst(othersWhere, otherOrder)),
    );
  } else
    rows = await queryRows<Row>(
      db,
      page(where, sql`FROM artist_profiles WHERE ${othersWhere} ORDER BY ${otherOrder}`),
    );
  return {
    artists: rows
      .slice(0, DISCOVERY_PAGE_SIZE)
      .map((r) => ({ ...cardOf(r), markedAvailable: r.marked_available })),
    hasMore: rows.length > DISCOVERY_PAGE_SIZE,
  };
}

/** A card's columns, in SQL written by hand (the date and the text searches). */
const cardColumns = sql`artist_profiles.id, artist_profiles.slug, artist_profiles.artist_name,
    artist_profiles.genre, artist_profiles.location, artist_profiles.bio,
    artist_profiles.instruments, artist_profiles.rating, artist_profiles.total_reviews,
    artist_profiles.verified_sessions, artist_profiles.client_verified_sessions,
    artist_profiles.is_available, artist_profiles.avatar_path, artist_profiles.hourly_rate,
    artist_profiles.starting_price`;

type CardRow = {
  id: string;
  slug: string;
  artist_name: string;
  genre: string;
  location: string;
  bio: string;
  instruments: string;
  rating: string | number;
  total_reviews: number;
  verified_sessions: number;
  client_verified_sessions: number;
  is_available: boolean;
  avatar_path: string | null;
  hourly_rate: string | number | null;
  starting_price: string | number | null;
};

function cardOf(r: CardRow): ArtistSummary {
  return {
    id: r.id,
    slug: r.slug,
    artistName: r.artist_name,
    genre: r.genre,
    location: r.location,
    bio: r.bio,
    instruments: r.instruments,
    rating: Number(r.rating),
    totalReviews: r.total_reviews,
    verifiedSessions: r.verified_sessions,
    clientVerifiedSessions: r.client_verified_sessions,
    isAvailable: r.is_available,
    avatarPath: r.avatar_path,
    hourlyRate: r.hourly_rate === null ? null : Number(r.hourly_rate),
    startingPrice: r.starting_price === null ? null : Number(r.starting_price),
  };
}

/**
 * A page of a words search (decisions 059, 065, 069): the page's matches in its order, read by the
 * words' walk where it serves that order, else from every match (walkedOrPlanned), or, for price
 * order in a location, as PostgreSQL plans it (walkServes). In best-match order the page is then
 * shown by how well each artist matches (ts_rank over the weighted document: a word in the name,
 * genre or instruments counts most, in a review least), ties by rating. Ranking across all
 * matches would read every match of a common word: at a million artists that is hundreds of
 * milliseconds (decision 059). Its own plan without a location walked the price index testing
 * every artist, for words that match nobody all of them (decision 069).
 */
async function wordsPage(
  ctx: Ctx,
  query: DiscoveryQuery,
  conditions: SQL[],
  offset: number,
): Promise<{ artists: DiscoveryArtist[]; hasMore: boolean }> {
  const where = sql.join(conditions, sql` AND `);
  const ranked = query.sort === "";
  const pageOf = (from: SQL, words: SQL) =>
    sql`SELECT ${cardColumns}${ranked ? sql`, ts_rank(artist_profiles.search_document, ${words}) AS relevance` : sql``} ${from}
        LIMIT ${DISCOVERY_PAGE_SIZE + 1} OFFSET ${offset}`;
  const order = sql.join(orderOf(query), sql`, `);
  type Row = CardRow & { relevance?: number };
  const rows = walkServes(query)
    ? await walkedOrPlanned<Row>(
        ctx,
        query,
        pageOf(
          wordsWalk(query, discoveryWhere(query, { generic: true })),
          once(wordsQuery(query.q)),
        ),
        pageOf(everyMatchFirst(where, order), wordsQuery(query.q)),
      )
    : await queryRows<Row>(
        ctx.db,
        pageOf(sql`FROM artist_profiles WHERE ${where} ORDER BY ${order}`, wordsQuery(query.q)),
      );
  const page = rows.slice(0, DISCOVERY_PAGE_SIZE);
  // Already in the order's order: a stable sort by relevance keeps it for ties.
  if (ranked) page.sort((a, b) => Number(b.relevance) - Number(a.relevance));
  return {
    artists: page.map((r) => ({ ...cardOf(r), markedAvailable: false })),
    hasMore: rows.length > DISCOVERY_PAGE_SIZE,
  };
}

/**
 * How many artists the search finds free on its date (at most FREE_COUNT_LIMIT + 1, which means
 * "more than the limit"). Null without a date. With words, the words' walk first (decision 073):
 * common words in a location find more than the limit among the location's best rated within
 * the walk's bounds, where PostgreSQL's own plan intersected every match of the words with every
 * artist of the location (76 ms for "corporate saxophone" in Chicago at a million artists); it
 * counts the rest, and rare words, as it plans. Public.
 */
export async function countFreeArtists(
  ctx: Ctx,
  _viewer: Actor,
  query: DiscoveryQuery,
): Promise<number | null> {
  if (!query.date) return null;
  if ([query.q, query.genre, query.location].some(hasNul)) return 0;
  const where = discoveryWhere(query);
  const countOf = (from: SQL) =>
    sql`SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${FREE_COUNT_LIMIT + 1}) counted`;
  const planned = countOf(sql`FROM artist_profiles WHERE ${where}`);
  type Row = { n: number };
  const [row] = query.q
    ? await walkedOrPlanned<Row>(
        ctx,
        query,
        // Best rated first within the location, the first page's bounds, whatever the order.
        countOf(
          wordsWalk({ ...query, sort: "", page: 1 }, discoveryWhere(query, { generic: true })),
        ),
        planned,
        ([walked]) => (walked?.n ?? 0) > FREE_COUNT_LIMIT,
      )
    : await queryRows<Row>(ctx.db, planned);
  return row?.n ?? 0;
}

// ─── Filter values (facets) ─────────────────────────────────────────────────────────────────────

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
 * put while the visitor types). Locations walk artist_profiles_location_idx: each distinct value
 * is found with one index probe past the last (a "skip scan"), then counted from the index alone,
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

/**
 * Everything /artist-discovery shows for a query: the page of artists, the filters' values, how
 * many are free on the date (with one), the page's artists' trust figures, and the names of the
 * artists `ticked` for 'Ask together' who are not on this page. The route's loader
 * and `npm run bench:discovery` both call this, so the bench measures what a visitor waits for.
 */
export async function loadDiscovery(
  ctx: Pick<AppContext, "db">,
  viewer: Actor,
  query: DiscoveryQuery,
  { ticked = [] }: { ticked?: string[] } = {},
) {
  const [result, facets, freeCount] = await Promise.all([
    searchArtists(ctx, viewer, query),
    getDiscoveryFacets(ctx, viewer),
    countFreeArtists(ctx, viewer, query),
  ]);
  // The page's artists' figures, cover photos and clips and, for words, where they matched
  // (all need the page's ids).
  const ids = result.artists.map((a) => a.id);
  const [trust, matches, media, tickedElsewhere] = await Promise.all([
    getTrustFigures(ctx, viewer, ids),
    searchMatches(ctx, query.q, ids),
    cardMedia(ctx, ids),
    artistNames(
      ctx,
      ticked.filter((id) => !ids.includes(id)),
    ),
  ]);
  return { ...result, facets, trust, matches, media, freeCount, tickedElsewhere };
}

/**
 * The names of artists by id, in the order asked; ids of no artist are left out. For the artists
 * ticked for 'Ask together' on another page of results (decision 060). Public: names are.
 */
async function artistNames(ctx: Ctx, ids: string[]): Promise<{ id: string; artistName: string }[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select({ id: artistProfiles.id, artistName: artistProfiles.artistName })
    .from(artistProfiles)
    .where(inArray(artistProfiles.id, ids));
  return ids.flatMap((id) => rows.filter((r) => r.id === id));
}
