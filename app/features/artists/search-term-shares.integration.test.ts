import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingPrepared } from "../../../tests/support/prepared-statements";
import { createTestDatabase } from "../../../tests/support/test-database";
import { wordsVerdict } from "./search-term-shares.server";

// The words' verdict (decision 070, 083) is asked once per instance: searches that ask while the
// question is out share it, and a question that fails is asked again by the next search.

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

describe("the words' verdict", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("is asked once for searches that ask at the same time, and kept", async () => {
    const { ctx, recorder } = recordingPrepared(database.db);
    const options = { withParts: true, runs: ["maya", "nakamura"] };
    const [first, second] = await Promise.all([
      wordsVerdict(ctx, "maya nakamura", options),
      wordsVerdict(ctx, "maya nakamura", options),
    ]);
    expect(recorder.prepared.length).toBe(1);
    expect(second).toEqual(first);
    expect(first.rarestTrigrams).toHaveLength(2);
    await wordsVerdict(ctx, "maya nakamura", options);
    expect(recorder.prepared.length).toBe(1);
    // Other words are another question.
    await wordsVerdict(ctx, "sitar", { withParts: true, runs: ["sitar"] });
    expect(recorder.prepared.length).toBe(2);
  });

  it("is asked again after a question that failed, not kept failed", async () => {
    const { ctx, recorder } = recordingPrepared(database.db);
    recorder.failNext = true;
    const options = { withParts: false };
    const failed = await Promise.allSettled([
      wordsVerdict(ctx, "wedding", options),
      wordsVerdict(ctx, "wedding", options),
    ]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(recorder.prepared.length).toBe(1);
    const verdict = await wordsVerdict(ctx, "wedding", options);
    expect(recorder.prepared.length).toBe(2);
    expect(verdict).toEqual({ rare: false, rarestTrigrams: [] });
  });

  it("is asked again once the time it is kept is over", async () => {
    const { ctx, recorder } = recordingPrepared(database.db);
    const now = Date.now();
    await wordsVerdict(ctx, "jazz", { withParts: true, now });
    await wordsVerdict(ctx, "jazz", { withParts: true, now: now + 9 * 60_000 });
    expect(recorder.prepared.length).toBe(1);
    await wordsVerdict(ctx, "jazz", { withParts: true, now: now + 11 * 60_000 });
    expect(recorder.prepared.length).toBe(2);
  });
});
