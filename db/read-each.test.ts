import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, usingServer } from "../tests/support/test-database";
import { type Queryable, queryRows, readEach } from "./client";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.dispose());

/** A read that takes `ms` at the database, and when it ran, as seen from here. */
function timedRead(db: Queryable, value: number, ms: number) {
  return async () => {
    const start = performance.now();
    const [row] = await queryRows<{ v: number }>(
      db,
      sql`SELECT ${value}::int AS v, pg_sleep(${ms / 1000})`,
    );
    return { v: row?.v, start, end: performance.now() };
  };
}

describe("readEach", () => {
  it("runs a transaction's reads one after another, in order, with no overlapping query", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      const [a, b, c] = await handle.db.transaction((tx) =>
        readEach(tx, [timedRead(tx, 1, 40), timedRead(tx, 2, 40), timedRead(tx, 3, 10)]),
      );
      expect([a.v, b.v, c.v]).toEqual([1, 2, 3]);
      expect(b.start).toBeGreaterThanOrEqual(a.end);
      expect(c.start).toBeGreaterThanOrEqual(b.end);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((m) => m.includes("already executing a query"))).toEqual([]);
  });

  it("runs a pool's reads side by side (PGlite, one connection, queues them itself)", async () => {
    const [a, b] = await readEach(handle.db, [
      timedRead(handle.db, 1, 200),
      timedRead(handle.db, 2, 200),
    ]);
    expect([a.v, b.v]).toEqual([1, 2]);
    // Both were sent before either answered: on a server pool they also ran at the same time.
    expect(b.start).toBeLessThan(a.end);
    const total = Math.max(a.end, b.end) - Math.min(a.start, b.start);
    if (usingServer()) expect(total).toBeLessThan(390);
    else expect(total).toBeGreaterThanOrEqual(395);
  });

  it("answers an empty list with an empty list", async () => {
    await expect(readEach(handle.db, [])).resolves.toEqual([]);
  });
});
