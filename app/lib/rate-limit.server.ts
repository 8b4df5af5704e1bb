import { sql } from "drizzle-orm";
import { type Queryable, queryRows } from "~db/client";

export type RateLimitRule = { max: number; windowMs: number };
export type RateLimitResult = { allowed: boolean; retryAfterMs: number };

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
  } satisfies RateLimitResult;
}
