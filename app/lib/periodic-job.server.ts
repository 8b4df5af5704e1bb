import { sql } from "drizzle-orm";
import { type Queryable, queryRows } from "~db/client";
import type { Logger } from "./logger.server";

export type JobRun<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` in a transaction that holds the PostgreSQL advisory lock named after the job, so
 * that however many server instances share the database, one of them does it at a time: an
 * instance that finds the lock taken skips this round (`ran: false`) instead of waiting. The lock
 * ends with the transaction, also when the process dies. `work` should be idempotent, since the
 * next round (on any instance) runs it again.
 */
export async function runExclusively<T>(
  db: Queryable,
  name: string,
  work: (tx: Queryable) => Promise<T>,
): Promise<JobRun<T>> {
  return db.transaction(async (tx) => {
    const [lock] = await queryRows<{ locked: boolean }>(
      tx,
      sql`SELECT pg_try_advisory_xact_lock(hashtext(${`gigledger job: ${name}`})) AS locked`,
    );
    if (!lock?.locked) return { ran: false } as const;
    return { ran: true, value: await work(tx) } as const;
  });
}

/**
 * Calls `runExclusively` every `everyMs` (first after one interval). A failed round is logged and
 * the next one tries again. `afterwards`, when given, runs once the lock's transaction has ended,
 * with what `work` returned, on the instance that did the round: slow work (reading other
 * servers) goes there, so no transaction stays open while it runs; `work` then only claims what
 * to do. Returns the timer: `clearInterval` stops it; it does not keep the process alive.
 */
export function startPeriodicJob<T>(options: {
  db: Queryable;
  logger: Pick<Logger, "error">;
  name: string;
  everyMs: number;
  work: (tx: Queryable) => Promise<T>;
  afterwards?: (value: T) => Promise<unknown>;
}): NodeJS.Timeout {
  const { db, logger, name, everyMs, work, afterwards } = options;
  let running = false;
  const timer = setInterval(() => {
    // A round still running (a slow database) is not overtaken by the next.
    if (running) return;
    running = true;
    runExclusively(db, name, work)
      .then((round) => (round.ran && afterwards ? afterwards(round.value) : undefined))
      .catch((error: unknown) => logger.error({ err: error, job: name }, `${name} failed`))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return timer;
}
