import type { SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import { queryRows, queryRowsPrepared } from "~db/client";
import { DISCOVERY_PAGE_SIZE } from "./artists.constants";
import type { DiscoveryQuery } from "./artists.schema";
import { type WordsVerdict, wordsVerdict } from "./search-term-shares.server";

// The words' walk (decisions 065, 067, 069, 070): a page of a words search read in rating or
// price order from the signatures' indexes, else from every match, for discovery.server.ts's
// searches; and a date search's page without words, read the same way (decision 080).

/** The words of a search as a full-text query (English stems; quotes, "or" and -words work). */
export const wordsQuery = (q: string) => sql`websearch_to_tsquery('english', ${q})`;

/**
 * `expression` worked out once per run of a statement, as a subquery (an InitPlan): for a
 * statement kept with a generic plan (decision 075), where PostgreSQL cannot work out a function
 * of a parameter while planning and would call it again for every row it tests (a mask's
 * PL/pgSQL for each of 10,000 index entries: 45-75 ms where the statement takes 2 ms).
 */
export const once = (expression: SQL) => sql`(SELECT ${expression})`;

/**
 * Index entries the words' walk passes over for each page up to the one asked (about 2 ms from the
 * index alone for the first), and at most. Words that find fewer than a page among them (rare
 * words, a typo) are found by everyMatchFirst instead.
 */
const WALK_PER_PAGE = 10_000;
const WALK_MAX = 100_000;
/**
 * Rows the walk reads, at most, per row up to the end of the page asked (2,600 for the first page,
 * about 15 ms): it bounds what a walk costs when the signatures rule out little (a pattern of few
 * trigrams, an "or", an artist described at great length). Words matching fewer than one in 100
 * of the artists the signatures let through go to everyMatchFirst. At 20, a last name ("sharma":
 * two artists in three let through, one in 26 of them a match) went there too, and sorting its
 * 25,000 matches took 190 ms.
 */
const ROWS_READ_PER_ROW = 100;

/**
 * The words' walk, in the page's order (decisions 065, 069): `FROM … ORDER BY` over the first
 * artists best rated first (within the location when there is one) or lowest rate first, read
 * from an index that also holds each artist's signatures. An artist whose signatures lack a bit
 * of the masks cannot match and is passed over without reading its row; each other one, up to a
 * bound, is read by id and tested against all of `conditions` (the words among them), so the
 * signatures only ever save work, never change what is found. The artist's row is `artist_profiles` to
 * `conditions` and the SELECT. Only where `walkServes`. Used through walkedOrPlanned.
 *
 * A budget is tested on the index entries too where the index read holds the rate (decision
 * 087): the price index always, and in rating order without a location or signatures the
 * rate-by-rating index (decision 085). Otherwise each row read is tested, up to the bound: for a
 * budget one artist in sixty meets, that read 2,600 rows to keep 43.
 */
export function wordsWalk(query: DiscoveryQuery, conditions: SQL): SQL {
  const [key, direction, within] =
    query.sort === "price"
      ? [sql`hourly_rate`, sql`ASC NULLS LAST`, sql``]
      : [
          sql`rating`,
          sql`DESC NULLS LAST`,
          query.location ? sql`WHERE location = ${query.location}` : sql``,
        ];
  const entries = Math.min(WALK_PER_PAGE * query.page, WALK_MAX);
  const rowsRead = ROWS_READ_PER_ROW * (query.page * DISCOVERY_PAGE_SIZE + 1);
  const signatures = signaturesNeeded(query) || query.sort === "price";
  const rate = query.budget > 0 && (query.sort === "price" || (!query.location && !signatures));
  return sql`FROM (SELECT id, sort_key FROM (SELECT id, ${key} AS sort_key${signatures ? sql`, search_bits, name_bits` : sql``}${rate ? sql`, hourly_rate` : sql``}
          FROM artist_profiles ${within}
          ORDER BY ${key} ${direction}, id LIMIT ${entries}) walked
        WHERE ${signaturesMayMatch(query, sql`walked.search_bits`, sql`walked.name_bits`)}${rate ? sql` AND walked.hourly_rate <= ${rateWithin(query)}` : sql``}
        ORDER BY sort_key ${direction}, id LIMIT ${rowsRead}) walk
    CROSS JOIN LATERAL (SELECT * FROM artist_profiles
      WHERE artist_profiles.id = walk.id AND ${conditions} OFFSET 0) artist_profiles
    ORDER BY walk.sort_key ${direction}, walk.id`;
}

/** The highest hourly rate within the query's budget for its hours (with a budget). */
export const rateWithin = (query: Pick<DiscoveryQuery, "budget" | "hours">) =>
  sql`${String(query.budget / query.hours)}::numeric`;

/**
 * Whether the words' walk serves the query's order: best rated first, within the location from
 * its index, or lowest rate first from the price index, which has no location. In a location,
 * price order is PostgreSQL's to plan: it knows a location's share, so it finds rare words there
 * with the text indexes (1.5-3 ms for a typo) and common ones along the price index (28 ms for
 * "sitar" in Mumbai, where every match first took 56 ms).
 */
export const walkServes = (query: DiscoveryQuery) => !(query.sort === "price" && query.location);

/**
 * Every artist matching `conditions` first, then `order` (`FROM … ORDER BY`; the row is
 * `artist_profiles`): for words the walk did not find a page of. The `OFFSET 0` keeps PostgreSQL
 * from walking the order instead and testing each artist, its choice for words it cannot tell
 * are rare: for words that match nobody that read every artist (5 s at a million, decision
 * 069); this way the text indexes find the few matches (under a millisecond).
 */
export function everyMatchFirst(conditions: SQL, order: SQL): SQL {
  return sql`FROM (SELECT * FROM artist_profiles WHERE ${conditions} OFFSET 0) artist_profiles
    ORDER BY ${order}`;
}

/** Whether signaturesMayMatch has a mask for the query (words, a genre or an occasion). */
const signaturesNeeded = (query: Pick<DiscoveryQuery, "q" | "genre" | "occasion">) =>
  Boolean(query.q || query.genre || query.occasion);

/**
 * Whether an artist with these signatures may match the words, the genre and the occasion of
 * `query`: false only when they lack a bit of a mask (the words', or the "contains" pattern's; the
 * genre's "contains" pattern, which the name bits hold with the name and instruments; the
 * occasion's words, which the search document holds for each of the artist's occasions), so an
 * artist the search finds always passes. For the walk, and for a day's marks, which carry their
 * artist's signatures (decision 067). Each mask is written once ("no bit of it missing") and
 * worked out once per run (`once`), also in a generic plan. With none of the three, true.
 */
export function signaturesMayMatch(
  query: Pick<DiscoveryQuery, "q" | "genre" | "occasion">,
  searchBits: SQL,
  nameBits: SQL,
): SQL {
  const hasAll = (bits: SQL, mask: SQL) => sql`(~${bits} & ${once(mask)}) = 0`;
  const masks: SQL[] = [];
  if (query.q) {
    const words = hasAll(searchBits, sql`search_query_bits(${wordsQuery(query.q)})`);
    masks.push(
      matchesParts(query.q)
        ? sql`(${words} OR ${hasAll(nameBits, sql`search_contains_bits(${query.q})`)})`
        : words,
    );
  }
  if (query.genre) masks.push(hasAll(nameBits, sql`search_contains_bits(${query.genre})`));
  if (query.occasion)
    masks.push(
      hasAll(searchBits, sql`search_query_bits(plainto_tsquery('english', ${query.occasion}))`),
    );
  return masks.length ? sql`(${sql.join(masks, sql` AND `)})` : sql`true`;
}

/**
 * Whether the words also match as a part of a name, genre or instruments ("kapo" finds Kapoor):
 * when they hold three letters or digits in a row, a trigram, which that index and the
 * signatures are made of. Without one ("DJ", "%", "a b") no index could find the part, and it
 * would match most names anyway (decision 069).
 */
export const matchesParts = (q: string) => /[\p{L}\p{N}]{3}/u.test(q);

/**
 * The runs of three or more letters or digits in the words, lowercase, each once ("maya" and
 * "nakamura"): what a part is found by in the trigram index.
 */
export const partRuns = (q: string) => [
  ...new Set(q.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []),
];

/** The terms' shares' verdict on a search's words, with its parts' runs (wordsVerdict). */
const verdictOn = (ctx: Pick<AppContext, "db">, q: string): Promise<WordsVerdict> => {
  const withParts = matchesParts(q);
  return wordsVerdict(ctx, q, { withParts, runs: withParts ? partRuns(q) : [] });
};

/**
 * Whether a search's words are too rare for the walk to find a page (decision 070: a typo, a
 * full name), so that it goes to every match without walking first. A search without words has
 * no such verdict: its walk is always tried (decision 080).
 */
export async function wordsTooRareToWalk(ctx: Pick<AppContext, "db">, q: string | undefined) {
  if (!q) return false;
  return (await verdictOn(ctx, q)).rare;
}

/**
 * Whether a words search's every match (everyMatchFirst) is sent prepared, with the words worked
 * out once per run (`discoveryConditions(query, { wordsOnce: true })`), decision 086: for words
 * and nothing else but their order, no filter and no date. Every match is then read from the
 * text indexes' bitmaps whatever the words, so its plan needs no estimate of how many match: each
 * connection parses the statement once, and PostgreSQL keeps one plan or makes a cheap one. At
 * 10 requests in flight, rare words alone went from about 1,550 to 1,820 a second. With a
 * filter, which index serves best rests on the values: a plan made without them could read
 * every artist of a common occasion.
 */
export const everyMatchPrepared = (query: DiscoveryQuery) =>
  Boolean(query.q) &&
  !query.genre &&
  !query.location &&
  !query.occasion &&
  !query.date &&
  query.budget === 0 &&
  query.clientVerified === 0;

/**
 * For each of partRuns(q), in order, the trigram of it the fewest artists have (decision 083), or
 * the run itself where the shares name none: what the trigram index is asked for, for parts of
 * several runs, in a statement planned with its values. Undefined without words.
 */
export async function rarestTrigrams(
  ctx: Pick<AppContext, "db">,
  q: string | undefined,
): Promise<string[] | undefined> {
  if (!q || !matchesParts(q)) return undefined;
  const runs = partRuns(q);
  const { rarestTrigrams: rarest } = await verdictOn(ctx, q);
  return runs.map((run, i) => rarest[i] ?? run);
}

/**
 * A page of a words search: the walk's (`walked`) when it found the page and one more (or, for
 * another answer, when `enough` says so), else the same from every match (`planned`,
 * everyMatchFirst). Words too rare to walk (wordsTooRareToWalk) go to every match at once. The
 * walk's bounds (index entries and rows read) bound what trying it costs. The walk is a prepared
 * statement whose generic plan PostgreSQL keeps (decision 075): its shape is fixed by the SQL
 * (ordered index, bounds, a row by id), so planning it again for every search only cost time, a
 * third of its run. Write `walked` with `discoveryConditions(query, { generic: true })`, so no
 * function of a parameter is called for each row. Every match is planned each time with the
 * values (its plan rests on how many match), but for words alone (everyMatchPrepared).
 */
export async function walkedOrPlanned<T extends Record<string, unknown>>(
  ctx: Pick<AppContext, "db">,
  query: DiscoveryQuery,
  walked: SQL,
  planned: SQL,
  enough: (rows: T[]) => boolean = (rows) => rows.length > DISCOVERY_PAGE_SIZE,
): Promise<T[]> {
  const everyMatch = () =>
    everyMatchPrepared(query)
      ? queryRowsPrepared<T>(ctx.db, planned)
      : queryRows<T>(ctx.db, planned);
  if (await wordsTooRareToWalk(ctx, query.q)) return everyMatch();
  const rows = await queryRowsPrepared<T>(ctx.db, walked);
  return enough(rows) ? rows : everyMatch();
}
