import { sql } from "drizzle-orm";
import { type Queryable, queryRows } from "~db/client";

export type RateLimitRule = { max: number; windowMs: number };
/** `count` is the number of attempts in the current window, this one included. */
type RateLimitResult = { allowed: boolean; retryAfterMs: number; count: number };

/**
 * Counts one attempt against `key` in a fixed window and says whether it is within the limit.
 * The counter lives in the database (`rate_limits`) and is updated in one atomic statement, so
 * a restart or a second server instance neither resets nor races it.
 */
export async function hitRateLimit(
  db: Queryable,
  key: string,
  rule: RateLimitRule,
  now = Date.now(),
) {
  const windowStart = now - rule.windowMs;
  const [row] = await queryRows<{ count: number; window_started: string | number }>(
    db,
    sql`
      INSERT INTO rate_limits (key, count, last_request) VALUES (${key}, 1, ${now})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_limits.last_request <= ${windowStart} THEN 1 ELSE rate_limits.count + 1 END,
        last_request = CASE WHEN rate_limits.last_request <= ${windowStart} THEN ${now} ELSE rate_limits.last_request END
      RETURNING count, last_request AS window_started
    `,
  );
  const count = row?.count ?? 1;
  const started = Number(row?.window_started ?? now);
  return {
    allowed: count <= rule.max,
    retryAfterMs: count <= rule.max ? 0 : Math.max(0, started + rule.windowMs - now),
    count,
  } satisfies RateLimitResult;
}

/** Checks every key (for example per IP and per e-mail); all are counted, any may block. */
export async function hitRateLimits(
  db: Queryable,
  keys: string[],
  rule: RateLimitRule,
  now = Date.now(),
) {
  const results = await Promise.all(keys.map((k) => hitRateLimit(db, k, rule, now)));
  return {
    allowed: results.every((r) => r.allowed),
    retryAfterMs: Math.max(0, ...results.map((r) => r.retryAfterMs)),
    count: Math.max(0, ...results.map((r) => r.count)),
  } satisfies RateLimitResult;
}

/** How many attempts `key` has in its current window, without counting one. */
export async function peekRateLimit(
  db: Queryable,
  key: string,
  rule: RateLimitRule,
  now = Date.now(),
): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count FROM rate_limits WHERE key = ${key} AND last_request > ${now - rule.windowMs}`,
  );
  return row?.count ?? 0;
}

/** Forgets the attempts counted against `key` (for example after a successful sign-in). */
export async function clearRateLimit(db: Queryable, key: string) {
  await db.execute(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}
