import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~db/client";
import { createTestDatabase } from "../../../tests/support/test-database";
import { wordsVerdict } from "./search-term-shares.server";

// The words' verdict (decision 070, 083) is asked once per instance: searches that ask while the
// question is out share it, and a question that fails is asked again by the next search.

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

/**
 * The database as the driver sees it, counting the statements it is asked to prepare (the
 * verdict's is prepared: queryRowsPrepared), failing the next one when told to.
 */
function countingDatabase(db: Database) {
  const counter = { asked: 0, failNext: false };
  const session = new Proxy(db._.session, {
    get(target, property, receiver) {
      if (property !== "prepareQuery") return Reflect.get(target, property, receiver);
      return (...args: Parameters<typeof target.prepareQuery>) => {
        counter.asked++;
        if (!counter.failNext) return target.prepareQuery(...args);
        counter.failNext = false;
        return { execute: () => Promise.reject(new Error("connection lost")) };
      };
    },
  });
  const counted = new Proxy(db, {
    get: (target, property, receiver) =>
      property === "_" ? { ...target._, session } : Reflect.get(target, property, receiver),
  });
  return { ctx: { db: counted }, counter };
}

describe("the words' verdict", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("is asked once for searches that ask at the same time, and kept", async () => {
    const { ctx, counter } = countingDatabase(database.db);
    const options = { withParts: true, runs: ["maya", "nakamura"] };
    const [first, second] = await Promise.all([
      wordsVerdict(ctx, "maya nakamura", options),
      wordsVerdict(ctx, "maya nakamura", options),
    ]);
    expect(counter.asked).toBe(1);
    expect(second).toEqual(first);
    expect(first.rarestTrigrams).toHaveLength(2);
    await wordsVerdict(ctx, "maya nakamura", options);
    expect(counter.asked).toBe(1);
    // Other words are another question.
    await wordsVerdict(ctx, "sitar", { withParts: true, runs: ["sitar"] });
    expect(counter.asked).toBe(2);
  });

  it("is asked again after a question that failed, not kept failed", async () => {
    const { ctx, counter } = countingDatabase(database.db);
    counter.failNext = true;
    const options = { withParts: false };
    const failed = await Promise.allSettled([
      wordsVerdict(ctx, "wedding", options),
      wordsVerdict(ctx, "wedding", options),
    ]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(counter.asked).toBe(1);
    const verdict = await wordsVerdict(ctx, "wedding", options);
    expect(counter.asked).toBe(2);
    expect(verdict).toEqual({ rare: false, rarestTrigrams: [] });
  });

  it("is asked again once the time it is kept is over", async () => {
    const { ctx, counter } = countingDatabase(database.db);
    const now = Date.now();
    await wordsVerdict(ctx, "jazz", { withParts: true, now });
    await wordsVerdict(ctx, "jazz", { withParts: true, now: now + 9 * 60_000 });
    expect(counter.asked).toBe(1);
    await wordsVerdict(ctx, "jazz", { withParts: true, now: now + 11 * 60_000 });
    expect(counter.asked).toBe(2);
  });
});
