import { and, inArray, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { freeOnDateSql } from "~/features/availability/availability.server";
import { getTrustFigures } from "~/features/trust/trust.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { queryRows, queryRowsPrepared } from "~db/client";
import { artistProfiles } from "~db/schema";
import { type ArtistSummary, summaryColumns } from "./artist-summary.server";
import { DISCOVERY_PAGE_SIZE, FREE_COUNT_LIMIT } from "./artists.constants";
import type { DiscoveryQuery } from "./artists.schema";
import { cardMedia } from "./card-media.server";
import { getDiscoveryFacets } from "./discovery-facets.server";
import { searchMatches } from "./search-matches.server";
import {
  everyMatchFirst,
  everyMatchPrepared,
  matchesParts,
  once,
  partRuns,
  rarestTrigrams,
  rateWithin,
  signaturesMayMatch,
  walkedOrPlanned,
  walkServes,
  wordsQuery,
  wordsTooRareToWalk,
  wordsWalk,
} from "./words-walk.server";

// Finding artists: the landing page's featured ones, and the discovery search with how many it
// finds free on a date. The filters' values are discovery-facets.server.ts's; profiles
// themselves, and the writes that change them, artists.server.ts's.

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

/**
 * Whether `text` (lowercase) holds `q` as a part. Planned (not `generic`), words with more than
 * one run of letters or digits ("maya" and "nakamura") ask the trigram index for one trigram of
 * each run (`trigrams`, rarestTrigrams(q): the rarest by the terms' shares, decision 083; without
 * them, each run whole), then test the whole (`strpos`, which no index serves, so it stays out
 * of the index's conditions). Every text holding the whole holds each of those, so they find the
 * same artists. The whole's pattern adds trigrams padded at the words' ends ("ya ", "  n"), whose
 * long posting lists the index then walks too; so does each trigram of a run. Measured at a
 * million artists, "Maya Nakamura", the same 604 artists: 9.3-12.2 ms in the index as one
 * pattern, 5.1-6.2 ms as its runs, and as their rarest trigrams 5.2 ms where the runs took 7.9
 * (decision 083). The walk (`generic`) tests each row it reads and keeps the one LIKE.
 */
function holdsPart(
  text: SQL,
  q: string,
  { generic, trigrams }: { generic: boolean; trigrams?: readonly string[] },
): SQL {
  const whole = q.toLowerCase();
  const runs = partRuns(q);
  if (generic || (runs.length === 1 && runs[0] === whole))
    return sql`${text} LIKE ${containsPattern(q)}`;
  const eachRun = (trigrams ?? runs).map((part) => sql`${text} LIKE ${containsPattern(part)}`);
  return sql`(${sql.join(eachRun, sql` AND `)} AND strpos(${text}, ${whole}) > 0)`;
}

/** No stored text holds a NUL character (PostgreSQL refuses them), so a query with one matches nothing. */
const hasNul = (text: string) => text.includes("\u0000");

/**
 * The search box and filters as SQL conditions on artist_profiles (see searchArtists). The words
 * match the weighted document (name, genre, instruments, occasions, bio, session titles, reviews)
 * or, for parts of names and typos' neighbours, the trigram index over name, genre and instruments.
 * `generic` for a statement kept with a generic plan (the words' walk, decision 075): the words'
 * query is then worked out once per run, not for each row tested. Where PostgreSQL plans with the
 * words (every match), it needs them as a value to estimate how many match, and `trigrams`, the
 * parts' rarest (rarestTrigrams), spare the trigram index the others (holdsPart). Words alone
 * need no estimate (everyMatchPrepared): `wordsOnce` works them out once per run there too.
 */
function discoveryConditions(
  query: DiscoveryQuery,
  { generic = false, trigrams, wordsOnce = generic }: ConditionOptions = {},
): SQL[] {
  const conditions: SQL[] = [];
  if (query.q) {
    const parts = matchesParts(query.q)
      ? sql` OR ${holdsPart(sql`lower(${artistProfiles.artistName} || ' ' || ${artistProfiles.genre} || ' ' || ${artistProfiles.instruments})`, query.q, { generic, trigrams })}`
      : sql``;
    const words = wordsOnce ? once(wordsQuery(query.q)) : wordsQuery(query.q);
    conditions.push(sql`(${artistProfiles.searchDocument} @@ ${words}${parts})`);
  }
  if (query.genre)
    conditions.push(sql`lower(${artistProfiles.genre}) LIKE ${containsPattern(query.genre)}`);
  if (query.location) conditions.push(sql`${artistProfiles.location} = ${query.location}`);
  if (query.occasion)
    conditions.push(sql`${artistProfiles.occasions} @> ARRAY[${query.occasion}]::text[]`);
  if (query.budget > 0) {
    // An hourly rate within the budget for the hours; artists who quote each booking have none.
    conditions.push(sql`${artistProfiles.hourlyRate} <= ${rateWithin(query)}`);
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

/**
 * How discoveryConditions are written: for the words' walk's generic plan (`generic`), with the
 * parts' rarest trigrams (`trigrams`), and with the words worked out once per run (`wordsOnce`,
 * as the walk's are).
 */
type ConditionOptions = { generic?: boolean; trigrams?: readonly string[]; wordsOnce?: boolean };

/** discoveryConditions joined by AND, for the statements written by hand. */
const discoveryWhere = (query: DiscoveryQuery, options?: ConditionOptions) =>
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
  const trigrams = await rarestTrigrams(ctx, query.q);
  if (query.date) {
    if (await wordsTooRareToWalk(ctx, query.q))
      return freePageOf(rareFreePage(await rareFreeRows(ctx, query, trigrams)));
    const { walked, planned } = freePageStatements(query, trigrams);
    const rows = walked
      ? await walkedOrPlanned<FreeRow>(ctx, query, walked, planned)
      : await queryRows<FreeRow>(db, planned);
    return freePageOf(rows);
  }
  const conditions = discoveryConditions(query, {
    trigrams,
    wordsOnce: everyMatchPrepared(query),
  });
  const offset = (query.page - 1) * DISCOVERY_PAGE_SIZE;
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

/** A row of a date search's page: a card, and whether the artist marked the date available. */
type FreeRow = CardRow & { marked_available: boolean };

/** The page of a date search's rows (one more than a page tells whether there is a next). */
const freePageOf = (rows: FreeRow[]) => ({
  artists: rows
    .slice(0, DISCOVERY_PAGE_SIZE)
    .map((r) => ({ ...cardOf(r), markedAvailable: r.marked_available })),
  hasMore: rows.length > DISCOVERY_PAGE_SIZE,
});

/** Whether the artist (the row `artist_profiles`) marked the query's date available. */
const markedOnDate = (query: DiscoveryQuery) =>
  sql`EXISTS (SELECT 1 FROM availability m
    WHERE m.artist_profile_id = artist_profiles.id AND m.date = ${query.date}::date
      AND m.status = 'available')`;

/** Rows a date search's branches read: to the end of the asked page, and one more. */
const pageEnd = (query: DiscoveryQuery) => query.page * DISCOVERY_PAGE_SIZE + 1;

/**
 * A date search's first branch: the free artists who marked the date available (`where` is the
 * search's conditions), read from that day's marks best rated first (each mark carries its
 * artist's location, rating and search signatures, so one index gives them in order, within the
 * location when there is one, and passes over those the words cannot match), cut at pageEnd.
 * "Price: low to high" walks them by the rate instead (the marks carry it too). A budget also
 * tests the marks' copy of the rate. Planned with its values, a budget few meet then reads its
 * marks from the by-price index instead of testing every mark's artist (decision 084); in the
 * walk's plan, made once for any budget, the copy is tested on the rating index's entries, which
 * hold it, before any artist's row is read (decision 087).
 */
function markedBranch(query: DiscoveryQuery, where: SQL): SQL {
  const markedIn = query.location ? sql` AND av.artist_location = ${query.location}` : sql``;
  const markedWithin =
    query.budget > 0 ? sql` AND av.artist_hourly_rate <= ${rateWithin(query)}` : sql``;
  // The marks' copies of the signatures pass over those that cannot match.
  const markedMayMatch = sql` AND ${signaturesMayMatch(query, sql`av.artist_search_bits`, sql`av.artist_name_bits`)}`;
  // The marks' own copies of the rating and the rate walk their indexes in order.
  const markedOrder =
    query.sort === "price"
      ? sql`av.artist_hourly_rate ASC NULLS LAST, av.artist_profile_id`
      : sql`av.artist_rating DESC NULLS LAST, av.artist_profile_id`;
  return sql`SELECT ${cardColumns}, true AS marked_available
    FROM availability av JOIN artist_profiles ON artist_profiles.id = av.artist_profile_id
    WHERE av.date = ${query.date}::date AND av.status = 'available'${markedIn}${markedWithin}${markedMayMatch}
      AND ${where}
    ORDER BY ${markedOrder}
    LIMIT ${pageEnd(query)}`;
}

/**
 * A date search's page: two ordered branches, each cut at pageEnd, the `marked` one first
 * (markedBranch), then the other free artists, `others` (`FROM … ORDER BY`: the same indexes as
 * without a date, with words the words' walk), both in the page's order.
 */
function freePageSql(query: DiscoveryQuery, marked: SQL, others: SQL): SQL {
  const order =
    query.sort === "price" ? sql`hourly_rate ASC NULLS LAST` : sql`rating DESC NULLS LAST`;
  return sql`SELECT * FROM (
        (${marked})
        UNION ALL
        (SELECT ${cardColumns}, false AS marked_available ${others} LIMIT ${pageEnd(query)})
      ) free
      ORDER BY marked_available DESC, ${order}, id
      LIMIT ${DISCOVERY_PAGE_SIZE + 1} OFFSET ${(query.page - 1) * DISCOVERY_PAGE_SIZE}`;
}

/**
 * Whether a date search's page tries the words' walk first: where it serves the order
 * (walkServes), with words on any page, without words on the first (decision 080). A later page
 * without words would walk deeper for each page (its bounds grow with it) before a filter few
 * meet falls back to its plan: 1.7 s for page 1,000 of a low budget at a million artists, where
 * the plan alone took 0.45 s.
 */
const walksFirst = (query: DiscoveryQuery) =>
  walkServes(query) && (Boolean(query.q) || query.page === 1);

/**
 * The statements of a date search's page: where it walks first (walksFirst) the walk's
 * (`walked`, for walkedOrPlanned), and always the one planned with the values (`planned`: for
 * words every match first, asking the trigram index for `trigrams`: discoveryConditions).
 */
function freePageStatements(
  query: DiscoveryQuery,
  trigrams: readonly string[] | undefined,
): { walked: SQL | null; planned: SQL } {
  const where = discoveryWhere(query, { trigrams });
  const othersWhere = sql`${where} AND NOT ${markedOnDate(query)}`;
  const otherOrder = sql.join(orderOf(query), sql`, `);
  const planned = freePageSql(
    query,
    markedBranch(query, where),
    query.q && walkServes(query)
      ? everyMatchFirst(othersWhere, otherOrder)
      : sql`FROM artist_profiles WHERE ${othersWhere} ORDER BY ${otherOrder}`,
  );
  if (!walksFirst(query)) return { walked: null, planned };
  const walkWhere = discoveryWhere(query, { generic: true });
  return {
    walked: freePageSql(
      query,
      markedBranch(query, walkWhere),
      wordsWalk(query, sql`${walkWhere} AND NOT ${markedOnDate(query)}`),
    ),
    planned,
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
        pageOf(
          everyMatchFirst(where, order),
          everyMatchPrepared(query) ? once(wordsQuery(query.q)) : wordsQuery(query.q),
        ),
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
 * "more than the limit"). Null without a date. The words' walk first, with words (decision 073)
 * or without (080): common words or filters in a location find more than the limit among the
 * location's best rated within the walk's bounds, where PostgreSQL's own plan intersected every
 * match of the words with every artist of the location (76 ms for "corporate saxophone" in
 * Chicago at a million artists), or read the table in its order until it had enough; it counts
 * the rest, and rare words, as it plans. Public.
 */
export async function countFreeArtists(
  ctx: Ctx,
  _viewer: Actor,
  query: DiscoveryQuery,
): Promise<number | null> {
  if (!query.date) return null;
  if ([query.q, query.genre, query.location].some(hasNul)) return 0;
  const trigrams = await rarestTrigrams(ctx, query.q);
  if (await wordsTooRareToWalk(ctx, query.q))
    return freeCountOf(await rareFreeRows(ctx, query, trigrams));
  const { walked, planned } = freeCountStatements(query, trigrams);
  const [row] = await walkedOrPlanned<{ n: number }>(
    ctx,
    query,
    walked,
    planned,
    ([counted]) => (counted?.n ?? 0) > FREE_COUNT_LIMIT,
  );
  return row?.n ?? 0;
}

/**
 * The statements of a date search's free count: the words' walk's count (`walked`:
 * best rated first within the location, the first page's bounds, whatever the page's order),
 * and PostgreSQL's own (`planned`, exact; asking the trigram index for `trigrams`).
 */
function freeCountStatements(
  query: DiscoveryQuery,
  trigrams: readonly string[] | undefined,
): { walked: SQL; planned: SQL } {
  const countOf = (from: SQL) =>
    sql`SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${FREE_COUNT_LIMIT + 1}) counted`;
  return {
    walked: countOf(wordsWalk(countWalked(query), discoveryWhere(query, { generic: true }))),
    planned: countOf(sql`FROM artist_profiles WHERE ${discoveryWhere(query, { trigrams })}`),
  };
}

/** A row of rareFreeSql: a card of the page (none where the page is empty) and the free count. */
type RareFreeRow = Partial<FreeRow> & { free_count: number };

/**
 * A date search's page and free count for words too rare to walk (decision 088), in one
 * statement: every match of the words and filters first (`matched`: the text indexes' bitmaps,
 * planned for all its rows in a CTE, so no limit leads PostgreSQL to read the table in order for
 * words it thinks common), then each match's day (free, and marked available), then the page in
 * the date search's order (those who marked the date first) and how many are free, at most
 * FREE_COUNT_LIMIT + 1. The words' rarity bounds the matches: under one artist in 500 of the
 * sample, decision 070. Before, a typo with a budget on a date took 380-450 ms to count, and the
 * marked branch read each of the day's marks' artists to test the words.
 */
function rareFreeSql(query: DiscoveryQuery, trigrams: readonly string[] | undefined): SQL {
  const within = query.location ? { location: query.location } : undefined;
  const order =
    query.sort === "price" ? sql`hourly_rate ASC NULLS LAST` : sql`rating DESC NULLS LAST`;
  return sql`WITH matched AS MATERIALIZED (
      SELECT id, rating, hourly_rate FROM artist_profiles
      WHERE ${discoveryWhere({ ...query, date: "" }, { trigrams })}),
    free AS MATERIALIZED (
      SELECT artist_profiles.*, ${markedOnDate(query)} AS marked_available
      FROM matched artist_profiles
      -- A scalar subquery: each match's day probed, not the whole day's busy list hashed.
      WHERE (SELECT ${freeOnDateSql(sql`artist_profiles.id`, query.date, within)}))
    SELECT paged.*, counted.free_count
    FROM (SELECT least(count(*), ${FREE_COUNT_LIMIT + 1})::int AS free_count FROM free) counted
    LEFT JOIN LATERAL (SELECT ${cardColumns}, free.marked_available
      FROM (SELECT * FROM free ORDER BY marked_available DESC, ${order}, id
        LIMIT ${DISCOVERY_PAGE_SIZE + 1} OFFSET ${(query.page - 1) * DISCOVERY_PAGE_SIZE}) free
      JOIN artist_profiles ON artist_profiles.id = free.id) paged ON true
    ORDER BY paged.marked_available DESC, paged.${order}, paged.id`;
}

/** rareFreeSql's rows. */
const rareFreeRows = (ctx: Ctx, query: DiscoveryQuery, trigrams: readonly string[] | undefined) =>
  queryRows<RareFreeRow>(ctx.db, rareFreeSql(query, trigrams));

/** The page's rows of rareFreeRows (none where the page is empty). */
const rareFreePage = (rows: RareFreeRow[]): FreeRow[] =>
  rows.filter((row): row is RareFreeRow & FreeRow => row.id !== null && row.id !== undefined);

/** The free count of rareFreeRows. */
const freeCountOf = (rows: RareFreeRow[]) => rows[0]?.free_count ?? 0;

/** The walk a free count takes: best rated first, the first page's bounds. */
const countWalked = (query: DiscoveryQuery): DiscoveryQuery => ({ ...query, sort: "", page: 1 });

/**
 * Whether a date search's page walks exactly as its free count does (best rated first, the
 * first page), so one walk answers both (searchAndCountFree). Only while the count goes to
 * at least two pages: then its walk holds a page and one more unmarked artists whenever the
 * marked ones do not fill the page (freePageAndCountWalk).
 */
const pageWalksAsCount = (query: DiscoveryQuery) =>
  Boolean(query.date) &&
  query.sort === "" &&
  query.page === 1 &&
  FREE_COUNT_LIMIT >= 2 * DISCOVERY_PAGE_SIZE;

/**
 * A date search's first page and its free count from one words' walk (decisions 077, 080). The count's
 * walk finds up to FREE_COUNT_LIMIT + 1 free artists, best rated first, within the first page's
 * bounds: the page's own walk, which goes on only until a page and one more not marked
 * available, reads a prefix of the same. Either the walk reached the limit, and then it holds a
 * page and one more of the unmarked ones or the marked branch alone fills the page (when more
 * than FREE_COUNT_LIMIT - DISCOVERY_PAGE_SIZE of them marked the date), or it stopped at the
 * same bounds as the page's walk, having read the same artists. The page is the same either way.
 */
function freePageAndCountWalk(query: DiscoveryQuery): SQL {
  const walkWhere = discoveryWhere(query, { generic: true });
  // The page's others: the first of the walk not in the marked branch, their cards read by id.
  // When the marked branch is cut short, it fills the page itself.
  const others = sql`FROM (SELECT id, sort_key FROM walked_free
        WHERE id NOT IN (SELECT id FROM marked)
        ORDER BY sort_key DESC NULLS LAST, id LIMIT ${pageEnd(query)}) walked_free
      JOIN artist_profiles ON artist_profiles.id = walked_free.id
    ORDER BY walked_free.sort_key DESC NULLS LAST, walked_free.id`;
  return sql`WITH walked_free AS MATERIALIZED (
      SELECT artist_profiles.id, walk.sort_key ${wordsWalk(query, walkWhere)}
      LIMIT ${FREE_COUNT_LIMIT + 1}),
    marked AS MATERIALIZED (${markedBranch(query, walkWhere)})
    SELECT paged.*, (SELECT count(*)::int FROM walked_free) AS free_count
    FROM (${freePageSql(query, sql`SELECT * FROM marked`, others)}) paged
    ORDER BY paged.marked_available DESC, paged.rating DESC NULLS LAST, paged.id`;
}

/**
 * The discovery search and, with a date, how many artists it finds free (countFreeArtists). A
 * date search's first page walks once for both (freePageAndCountWalk), then, as each
 * alone would, asks PostgreSQL's plan for whichever the walk did not answer. Words too rare to
 * walk find both in one statement (rareFreeSql). Public.
 */
export async function searchAndCountFree(
  ctx: Ctx,
  viewer: Actor,
  query: DiscoveryQuery,
): Promise<{ artists: DiscoveryArtist[]; hasMore: boolean; freeCount: number | null }> {
  const eachAlone = async () => {
    const [result, freeCount] = await Promise.all([
      searchArtists(ctx, viewer, query),
      countFreeArtists(ctx, viewer, query),
    ]);
    return { ...result, freeCount };
  };
  if (!query.date || [query.q, query.genre, query.location].some(hasNul)) return eachAlone();
  if (await wordsTooRareToWalk(ctx, query.q)) {
    // Words too rare to walk: the page and its count from one statement (rareFreeSql).
    const rows = await rareFreeRows(ctx, query, await rarestTrigrams(ctx, query.q));
    return { ...freePageOf(rareFreePage(rows)), freeCount: freeCountOf(rows) };
  }
  if (!pageWalksAsCount(query)) return eachAlone();
  const walked = await queryRowsPrepared<FreeRow & { free_count: number }>(
    ctx.db,
    freePageAndCountWalk(query),
  );
  const walkedCount = walked[0]?.free_count ?? 0;
  const trigrams = await rarestTrigrams(ctx, query.q);
  const [rows, freeCount] = await Promise.all([
    walked.length > DISCOVERY_PAGE_SIZE
      ? walked
      : queryRows<FreeRow>(ctx.db, freePageStatements(query, trigrams).planned),
    walkedCount > FREE_COUNT_LIMIT
      ? walkedCount
      : queryRows<{ n: number }>(ctx.db, freeCountStatements(query, trigrams).planned).then(
          ([row]) => row?.n ?? 0,
        ),
  ]);
  return { ...freePageOf(rows), freeCount };
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
  const [{ freeCount, ...result }, facets] = await Promise.all([
    searchAndCountFree(ctx, viewer, query),
    getDiscoveryFacets(ctx, viewer),
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
