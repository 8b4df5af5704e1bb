import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { queryRows } from "~db/client";
import { createTestDatabase, usingServer } from "../../tests/support/test-database";
import { runExclusively, startPeriodicJob } from "./periodic-job.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`CREATE TABLE job_runs (n int NOT NULL)`);
});
afterAll(async () => {
  await database?.dispose();
});

/** Rows in job_runs (count(*) always answers one row). */
const runs = async () => {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM job_runs`,
  );
  if (!row) throw new Error("count(*) answered no row");
  return row.n;
};

describe("runExclusively", () => {
  it("runs the work in a transaction and returns its value", async () => {
    const before = await runs();
    const result = await runExclusively(database.db, "test job", async (tx) => {
      await tx.execute(sql`INSERT INTO job_runs VALUES (1)`);
      return "done";
    });
    expect(result).toEqual({ ran: true, value: "done" });
    expect(await runs()).toBe(before + 1);
  });

  it("rolls the work back when it fails, and passes the error on", async () => {
    const before = await runs();
    await expect(
      runExclusively(database.db, "test job", async (tx) => {
        await tx.execute(sql`INSERT INTO job_runs VALUES (2)`);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await runs()).toBe(before);
  });

  // Two instances exist only on a PostgreSQL server: the embedded database belongs to one process.
  if (usingServer())
    it("skips a round while another instance holds the job's lock, then runs again", async () => {
      let inner: Awaited<ReturnType<typeof runExclusively>> | undefined;
      await runExclusively(database.db, "shared job", async () => {
        // Another connection, as another server instance would be.
        inner = await runExclusively(database.db, "shared job", async () => "twice");
      });
      expect(inner).toEqual({ ran: false });
      expect(await runExclusively(database.db, "shared job", async () => "after")).toEqual({
        ran: true,
        value: "after",
      });
    });
});

describe("startPeriodicJob", () => {
  it("runs every interval, logs a failed round and keeps going", async () => {
    vi.useFakeTimers();
    try {
      const logged: unknown[] = [];
      let calls = 0;
      const timer = startPeriodicJob({
        db: database.db,
        logger: { error: (...args: unknown[]) => void logged.push(args) } as never,
        name: "flaky job",
        everyMs: 1000,
        work: async () => {
          calls++;
          if (calls === 1) throw new Error("first round fails");
        },
      });
      expect(calls).toBe(0);
      await vi.advanceTimersByTimeAsync(1000);
      await vi.waitFor(() => expect(logged).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(1000);
      await vi.waitFor(() => expect(calls).toBe(2));
      clearInterval(timer);
      await vi.advanceTimersByTimeAsync(5000);
      expect(calls).toBe(2);
      expect(logged).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
