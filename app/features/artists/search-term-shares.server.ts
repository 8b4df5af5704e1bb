import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import type { QueueHandler } from "~/lib/jobs.server";
import { type Queryable, queryRows, queryRowsPrepared } from "~db/client";

// How common the terms of a words search are (decision 070): a sample's shares of each word and
// trigram, written again every hour by a job, so that words too rare for the words' walk go
// straight to every match instead of walking 10,000 artists first (words-walk.server.ts).

/** The schedule's queue: every hour one instance writes the terms' shares again. */
export const SEARCH_TERM_SHARES_QUEUE = "artists.search-term-shares";

/** How long an instance trusts a verdict, and how many searches' verdicts it keeps. */
const VERDICT_TTL_MS = 10 * 60_000;
const VERDICTS_KEPT = 1000;

type Verdict = { rare: boolean; at: number };
const verdicts = new WeakMap<object, Map<string, Verdict>>();

/**
 * Whether the words of `q` are too rare for the words' walk (`search_words_rare`, migration 0034):
 * asked once per instance for each search's words, then remembered for VERDICT_TTL_MS (the
 * shares change once an hour). A verdict only chooses how a page is found, never what is found.
 */
export async function wordsAreRare(
  ctx: Pick<AppContext, "db">,
  q: string,
  { withParts, now = Date.now() }: { withParts: boolean; now?: number },
): Promise<boolean> {
  let kept = verdicts.get(ctx.db);
  if (!kept) {
    kept = new Map();
    verdicts.set(ctx.db, kept);
  }
  const key = `${withParts ? "+" : "-"}${q}`;
  const known = kept.get(key);
  if (known && now - known.at < VERDICT_TTL_MS) return known.rare;
  const [row] = await queryRowsPrepared<{ rare: boolean }>(
    ctx.db,
    sql`SELECT search_words_rare(${q}, ${withParts}) AS rare`,
  );
  const rare = row?.rare === true;
  kept.delete(key);
  kept.set(key, { rare, at: now });
  if (kept.size > VERDICTS_KEPT) kept.delete(kept.keys().next().value as string);
  return rare;
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
