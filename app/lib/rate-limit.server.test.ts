import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../../tests/support/test-database";
import { clearRateLimit, hitRateLimit, hitRateLimits, peekRateLimit } from "./rate-limit.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

describe("hitRateLimit", () => {
  it("allows max attempts per window, then blocks until the window has passed", async () => {
    const rule = { max: 3, windowMs: 60_000 };
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++)
      expect((await hitRateLimit(database.db, "k1", rule, t0 + i)).allowed).toBe(true);
    const blocked = await hitRateLimit(database.db, "k1", rule, t0 + 10_000);
    expect(blocked.allowed).toBe(false);
    expect(blocked.retryAfterMs).toBe(50_000);
    expect((await hitRateLimit(database.db, "k1", rule, t0 + 60_001)).allowed).toBe(true);
  });

  it("counts concurrent attempts exactly", async () => {
    const rule = { max: 5, windowMs: 60_000 };
    const results = await Promise.all(
      Array.from({ length: 12 }, () => hitRateLimit(database.db, "k-concurrent", rule, 5_000_000)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });

  it("blocks when any of several keys is over its limit", async () => {
    const rule = { max: 2, windowMs: 60_000 };
    await hitRateLimits(database.db, ["ip:1", "email:a"], rule, 9_000_000);
    await hitRateLimits(database.db, ["ip:2", "email:a"], rule, 9_000_001);
    // A new IP, but the same e-mail a third time.
    expect((await hitRateLimits(database.db, ["ip:3", "email:a"], rule, 9_000_002)).allowed).toBe(
      false,
    );
    expect((await hitRateLimits(database.db, ["ip:3", "email:b"], rule, 9_000_003)).allowed).toBe(
      true,
    );
  });
});

describe("peekRateLimit and clearRateLimit", () => {
  it("reads the count of the current window without counting, and forgets a key", async () => {
    const rule = { max: 5, windowMs: 60_000 };
    const t0 = 20_000_000;
    expect(await peekRateLimit(database.db, "peek", rule, t0)).toBe(0);
    await hitRateLimit(database.db, "peek", rule, t0);
    expect((await hitRateLimit(database.db, "peek", rule, t0 + 1)).count).toBe(2);
    expect(await peekRateLimit(database.db, "peek", rule, t0 + 2)).toBe(2);
    expect(await peekRateLimit(database.db, "peek", rule, t0 + 2)).toBe(2);
    // A window that has passed counts nothing.
    expect(await peekRateLimit(database.db, "peek", rule, t0 + 60_000)).toBe(0);
    await clearRateLimit(database.db, "peek");
    expect(await peekRateLimit(database.db, "peek", rule, t0 + 3)).toBe(0);
    expect((await hitRateLimit(database.db, "peek", rule, t0 + 4)).count).toBe(1);
  });
});
