import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import type { QueueHandler } from "~/lib/jobs.server";
import { type Queryable, queryRows, queryRowsPrepared } from "~db/client";

// How common the terms of a words search are (decision 070): a sample's shares of each word and
// trigram, written again every hour by a job, so that words too rare for the words' walk go
// straight to every match instead of walking 10,000 artists first (words-walk.server.ts), and
// the trigram index is asked for each part's rarest trigram only (decision 083).

/** The schedule's queue: every hour one instance writes the terms' shares again. */
export const SEARCH_TERM_SHARES_QUEUE = "artists.search-term-shares";

/** How long an instance trusts a verdict, and how many searches' verdicts it keeps. */
const VERDICT_TTL_MS = 10 * 60_000;
const VERDICTS_KEPT = 1000;

/**
 * What the terms' shares say of a search's words: whether they are too rare for the words' walk,
 * and, for each run of letters or digits asked about, the trigram in it the fewest artists have
 * (null where the run has none the index keeps as letters).
 */
export type WordsVerdict = { rare: boolean; rarestTrigrams: (string | null)[] };

/** A verdict asked for or known, and when it was asked (so two searches at once ask once). */
type Kept = { verdict: Promise<WordsVerdict>; at: number };
const verdicts = new WeakMap<object, Map<string, Kept>>();

/**
 * The terms' shares' verdict on the words of `q` (`search_words_rare`, migration 0034, and each
 * of `runs`' rarest trigram, decision 083): asked once per instance for each search's words, then
 * remembered for VERDICT_TTL_MS (the shares change once an hour). Searches that ask while the
 * question is out share its answer (a page and its count run side by side); a question that
 * fails is forgotten, so the next search asks again. A verdict only chooses how a page is found,
 * never what is found.
 */
export async function wordsVerdict(
  ctx: Pick<AppContext, "db">,
  q: string,
  {
    withParts,
    runs = [],
    now = Date.now(),
  }: { withParts: boolean; runs?: readonly string[]; now?: number },
): Promise<WordsVerdict> {
  let kept = verdicts.get(ctx.db);
  if (!kept) {
    kept = new Map();
    verdicts.set(ctx.db, kept);
  }
  const key = `${withParts ? "+" : "-"}${runs.join(" ")}\u0000${q}`;
  const known = kept.get(key);
  if (known && now - known.at < VERDICT_TTL_MS) return known.verdict;
  const verdict = askVerdict(ctx, q, withParts, runs);
  kept.delete(key);
  kept.set(key, { verdict, at: now });
  if (kept.size > VERDICTS_KEPT) kept.delete(kept.keys().next().value as string);
  const asked = kept;
  verdict.catch(() => {
    if (asked.get(key)?.verdict === verdict) asked.delete(key);
  });
  return verdict;
}

/** Asks the database for wordsVerdict's answer. */
async function askVerdict(
  ctx: Pick<AppContext, "db">,
  q: string,
  withParts: boolean,
  runs: readonly string[],
): Promise<WordsVerdict> {
  // The runs (letters and digits, so no spaces) go as one text. A trigram not in the sample counts
  // as the rarest; `strpos` keeps to trigrams written as the run's own letters (pg_trgm shows a
  // trigram of wide characters as a hash).
  const [row] = await queryRowsPrepared<{ rare: boolean; rarest: (string | null)[] }>(
    ctx.db,
    sql`SELECT search_words_rare(${q}, ${withParts}) AS rare,
      ARRAY(SELECT (SELECT t FROM unnest(show_trgm(r.run)) t
          LEFT JOIN search_term_shares s ON s.kind = 'part' AND s.term = t
          WHERE length(t) = 3 AND strpos(r.run, t) > 0
          ORDER BY coalesce(s.share, 0), t LIMIT 1)
        FROM unnest(string_to_array(${runs.join(" ")}, ' ')) WITH ORDINALITY r(run, n)
        ORDER BY r.n) AS rarest`,
  );
  return { rare: row?.rare === true, rarestTrigrams: row?.rarest ?? runs.map(() => null) };
}

/** Whether the words of `q` are too rare for the words' walk (wordsVerdict). */
export async function wordsAreRare(
  ctx: Pick<AppContext, "db">,
  q: string,
  options: { withParts: boolean; now?: number },
): Promise<boolean> {
  return (await wordsVerdict(ctx, q, options)).rare;
}

/**
 * Writes the terms' shares again from a sample of artists (in `tx` when given, the job's), and
 * this instance asks afresh; returns how many terms were written.
 */
export async function refreshSearchTermShares(
  ctx: Pick<AppContext, "db">,
  tx: Queryable = ctx.db,
): Promise<number> {
  const [row] = await queryRows<{ written: number }>(
    tx,
    sql`SELECT refresh_search_term_shares() AS written`,
  );
  verdicts.delete(ctx.db);
  return row?.written ?? 0;
}

/** The artists' background work (app/lib/jobs.server.ts): the terms' shares, every hour. */
export function artistJobs(ctx: Pick<AppContext, "db">): QueueHandler[] {
  return [
    {
      queue: SEARCH_TERM_SHARES_QUEUE,
      everySeconds: 3600,
      leaseSeconds: 300,
      inTransaction: async (tx) => {
        await refreshSearchTermShares(ctx, tx);
      },
    },
  ];
}
