import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Queryable, queryRows } from "~db/client";
import { createTestDatabase } from "../../tests/support/test-database";
import { createLocalClock } from "./clock.server";
import {
  enqueueJob,
  type Job,
  type QueueHandler,
  runDueJobs,
  runQueuesNow,
  UnknownQueueError,
} from "./jobs.server";

/** The jobs' app clock (decision 054) and `runQueuesNow` (a local app's /dev/jobs/run). */
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`CREATE TABLE run_now_effects (key text NOT NULL)`);
});
afterAll(async () => {
  await database?.dispose();
});
beforeEach(async () => {
  await database.db.execute(sql`DELETE FROM run_now_effects`);
  await database.db.execute(sql`DELETE FROM jobs`);
  await database.db.execute(sql`DELETE FROM job_schedules`);
});

const HOUR = 3_600_000;
const effects = async () =>
  (
    await queryRows<{ key: string }>(database.db, sql`SELECT key FROM run_now_effects ORDER BY key`)
  ).map((row) => row.key);

const writing = (queue: string, extra: Partial<QueueHandler> = {}): QueueHandler =>
  ({
    queue,
    leaseSeconds: 60,
    inTransaction: async (tx: Queryable, jobs: Job[]) => {
      for (const job of jobs)
        await tx.execute(sql`INSERT INTO run_now_effects VALUES (${`${queue}:${job.key}`})`);
    },
    ...extra,
  }) as QueueHandler;

describe("jobs on the app's clock", () => {
  it("runs a job timed in the app's future once the clock has passed it", async () => {
    const clock = createLocalClock();
    await enqueueJob(database.db, {
      queue: "test.release",
      key: "booking-1",
      runAt: new Date(clock.now().getTime() + 48 * HOUR),
    });
    await runDueJobs(database.db, [writing("test.release")], undefined, { clock });
    expect(await effects()).toEqual([]);
    clock.advance(47 * HOUR + 59 * 60_000);
    await runDueJobs(database.db, [writing("test.release")], undefined, { clock });
    expect(await effects()).toEqual([]);
    clock.advance(2 * 60_000);
    await runDueJobs(database.db, [writing("test.release")], undefined, { clock });
    expect(await effects()).toEqual(["test.release:booking-1"]);
  });

  it("waits for a retry by the app's time", async () => {
    const clock = createLocalClock();
    clock.advance(10 * HOUR);
    await enqueueJob(database.db, { queue: "test.failing", key: "x" });
    let calls = 0;
    const failing: QueueHandler = {
      queue: "test.failing",
      leaseSeconds: 60,
      inTransaction: async () => {
        calls++;
        throw new Error("no");
      },
    };
    await runDueJobs(database.db, [failing], () => {}, { clock });
    // Without the clock the retry would be due at once (its real time is 10 hours behind).
    await runDueJobs(database.db, [failing], () => {}, { clock });
    expect(calls).toBe(1);
    clock.advance(31_000);
    await runDueJobs(database.db, [failing], () => {}, { clock });
    expect(calls).toBe(2);
  });
});

describe("runQueuesNow", () => {
  it("runs a scheduled queue now, whatever its next time", async () => {
    await database.db.execute(
      sql`INSERT INTO job_schedules (queue, next_run_at) VALUES ('test.sweep', now() + interval '1 hour')`,
    );
    const handlers = [writing("test.sweep", { everySeconds: 600 }), writing("test.other")];
    const ran = await runQueuesNow(database.db, handlers, ["test.sweep"]);
    expect(ran).toEqual([{ queue: "test.sweep", batches: 1, scheduled: true, errors: [] }]);
    expect(await effects()).toEqual(["test.sweep:scheduled"]);
    // Once: nothing is left waiting.
    expect(await queryRows(database.db, sql`SELECT id FROM jobs`)).toEqual([]);
  });

  it("runs a queue's due jobs, not its later ones, in the order named", async () => {
    await enqueueJob(database.db, { queue: "test.a", key: "1" });
    await enqueueJob(database.db, { queue: "test.a", key: "2" });
    await enqueueJob(database.db, {
      queue: "test.a",
      key: "later",
      runAt: new Date(Date.now() + HOUR),
    });
    await enqueueJob(database.db, { queue: "test.b", key: "1" });
    const handlers = [writing("test.a"), writing("test.b"), writing("test.c")];
    const ran = await runQueuesNow(database.db, handlers, ["test.b", "test.a", "test.a"]);
    expect(ran).toEqual([
      { queue: "test.b", batches: 1, scheduled: false, errors: [] },
      { queue: "test.a", batches: 2, scheduled: false, errors: [] },
    ]);
    expect(await effects()).toEqual(["test.a:1", "test.a:2", "test.b:1"]);
    // The later one runs once the app's clock has passed it.
    const clock = createLocalClock();
    clock.advance(2 * HOUR);
    expect(await runQueuesNow(database.db, handlers, ["test.a"], { clock })).toMatchObject([
      { queue: "test.a", batches: 1 },
    ]);
    expect(await effects()).toContain("test.a:later");
  });

  it("reports a failure instead of throwing, and records it on the job", async () => {
    await enqueueJob(database.db, { queue: "test.failing", key: "x" });
    const failing: QueueHandler = {
      queue: "test.failing",
      leaseSeconds: 60,
      outside: async () => {
        throw new Error("the other side said no");
      },
    };
    const ran = await runQueuesNow(database.db, [failing], ["test.failing"]);
    expect(ran).toEqual([
      { queue: "test.failing", batches: 1, scheduled: false, errors: ["the other side said no"] },
    ]);
    const [job] = await queryRows<{ lastError: string }>(
      database.db,
      sql`SELECT last_error AS "lastError" FROM jobs`,
    );
    expect(job?.lastError).toBe("the other side said no");
  });

  it("refuses unknown names before running anything", async () => {
    await enqueueJob(database.db, { queue: "test.a", key: "1" });
    const error = await runQueuesNow(
      database.db,
      [writing("test.a")],
      ["test.a", "nope", "jobs; DROP TABLE jobs"],
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownQueueError);
    expect((error as UnknownQueueError).queues).toEqual(["nope", "jobs; DROP TABLE jobs"]);
    expect(await effects()).toEqual([]);
  });
});
