import { spawn } from "node:child_process";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Queryable, queryRows } from "~db/client";
import { createTestDatabase, usingServer } from "../../tests/support/test-database";
import {
  addScheduledJobs,
  enqueueJob,
  type Job,
  type QueueHandler,
  runDueJobs,
  startJobRunner,
} from "./jobs.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.execute(sql`CREATE TABLE job_effects (key text NOT NULL)`);
});
afterAll(async () => {
  await database?.dispose();
});
beforeEach(async () => {
  await database.db.execute(sql`DELETE FROM job_effects`);
  await database.db.execute(sql`DELETE FROM jobs`);
  await database.db.execute(sql`DELETE FROM job_schedules`);
});

const effects = async () =>
  (
    await queryRows<{ key: string }>(database.db, sql`SELECT key FROM job_effects ORDER BY key`)
  ).map((row) => row.key);

type JobRow = {
  queue: string;
  key: string;
  attempts: number;
  lastError: string | null;
  failed: boolean;
  waitsSeconds: number;
};
const jobRows = () =>
  queryRows<JobRow>(
    database.db,
    sql`SELECT queue, key, attempts, last_error AS "lastError", failed_at IS NOT NULL AS failed,
      round(extract(epoch FROM run_at - now()))::int AS "waitsSeconds"
      FROM jobs ORDER BY id`,
  );

/** A handler that writes each job's key as its effect, in the job's transaction. */
const writing = (queue: string, extra: Partial<QueueHandler> = {}): QueueHandler =>
  ({
    queue,
    leaseSeconds: 60,
    inTransaction: async (tx: Queryable, jobs: Job[]) => {
      for (const job of jobs) await tx.execute(sql`INSERT INTO job_effects VALUES (${job.key})`);
    },
    ...extra,
  }) as QueueHandler;

describe("adding a job", () => {
  it("joins the caller's transaction: rolled back, no job; committed, one", async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueJob(tx, { queue: "test.effects", key: "a" });
        throw new Error("the write failed");
      }),
    ).rejects.toThrow("the write failed");
    expect(await jobRows()).toEqual([]);
    await database.db.transaction((tx) => enqueueJob(tx, { queue: "test.effects", key: "a" }));
    expect(await jobRows()).toMatchObject([{ queue: "test.effects", key: "a", attempts: 0 }]);
  });

  it("keeps one job per queue and key while it waits", async () => {
    for (const _ of [1, 2, 3]) await enqueueJob(database.db, { queue: "test.effects", key: "a" });
    await enqueueJob(database.db, { queue: "test.other", key: "a" });
    expect((await jobRows()).map((j) => `${j.queue}/${j.key}`)).toEqual([
      "test.effects/a",
      "test.other/a",
    ]);
    await runDueJobs(database.db, [writing("test.effects")]);
    expect(await effects()).toEqual(["a"]);
    expect((await jobRows()).map((j) => j.queue)).toEqual(["test.other"]);
  });

  it("waits for its time when given one", async () => {
    await enqueueJob(database.db, {
      queue: "test.effects",
      key: "later",
      runAt: new Date(Date.now() + 3_600_000),
    });
    await runDueJobs(database.db, [writing("test.effects")]);
    expect(await effects()).toEqual([]);
    expect(await jobRows()).toHaveLength(1);
  });
});

describe("running jobs", () => {
  it("commits the effect and the job's removal together", async () => {
    for (const key of ["a", "b", "c"])
      await enqueueJob(database.db, { queue: "test.effects", key });
    await runDueJobs(database.db, [writing("test.effects", { batch: 2 })]);
    expect(await effects()).toEqual(["a", "b", "c"]);
    expect(await jobRows()).toEqual([]);
  });

  it("rolls a failed attempt's effect back, keeps the error and tries later, then gives up", async () => {
    await enqueueJob(database.db, { queue: "test.effects", key: "x", maxAttempts: 2 });
    const failing: QueueHandler = {
      queue: "test.effects",
      leaseSeconds: 60,
      inTransaction: async (tx) => {
        await tx.execute(sql`INSERT INTO job_effects VALUES ('half done')`);
        throw new Error("the other side said no");
      },
    };
    const errors: string[] = [];
    await runDueJobs(database.db, [failing], (error) => errors.push(String(error)));
    expect(errors).toEqual(["Error: the other side said no"]);
    expect(await effects()).toEqual([]);
    const [first] = await jobRows();
    expect(first).toMatchObject({
      attempts: 1,
      lastError: "the other side said no",
      failed: false,
    });
    expect(first?.waitsSeconds).toBeGreaterThanOrEqual(25);

    // Due again: the second failure is the last attempt.
    await database.db.execute(sql`UPDATE jobs SET run_at = now()`);
    await runDueJobs(database.db, [failing], () => {});
    expect(await jobRows()).toMatchObject([{ attempts: 2, failed: true }]);
    await database.db.execute(sql`UPDATE jobs SET run_at = now()`);
    await runDueJobs(database.db, [writing("test.effects")]);
    expect(await effects()).toEqual([]);
    // A job given up does not stop the same work from being asked for again.
    await enqueueJob(database.db, { queue: "test.effects", key: "x" });
    await runDueJobs(database.db, [writing("test.effects")]);
    expect(await effects()).toEqual(["x"]);
  });

  it("runs a job added again while it ran once more afterwards", async () => {
    await enqueueJob(database.db, { queue: "test.effects", key: "a" });
    let runs = 0;
    const addsItself: QueueHandler = {
      queue: "test.effects",
      leaseSeconds: 60,
      inTransaction: async (tx) => {
        runs++;
        await tx.execute(sql`INSERT INTO job_effects VALUES (${`run ${runs}`})`);
        // Another write asks for the same work while this run has not committed.
        if (runs === 1) await enqueueJob(tx, { queue: "test.effects", key: "a" });
      },
    };
    await runDueJobs(database.db, [addsItself]);
    expect(await effects()).toEqual(["run 1", "run 2"]);
    expect(await jobRows()).toEqual([]);
  });

  it("runs a queue only once the queues it comes after have nothing due", async () => {
    const order: string[] = [];
    const recording = (queue: string, after?: string[]): QueueHandler => ({
      queue,
      leaseSeconds: 60,
      after,
      inTransaction: async (_tx, jobs) => {
        for (const job of jobs) order.push(`${queue}:${job.key}`);
      },
    });
    await enqueueJob(database.db, { queue: "test.last", key: "cv" });
    await enqueueJob(database.db, { queue: "test.first", key: "1" });
    await enqueueJob(database.db, { queue: "test.first", key: "2" });
    // Listed first, the later queue still waits.
    await runDueJobs(database.db, [
      recording("test.last", ["test.first"]),
      recording("test.first"),
    ]);
    expect(order).toEqual(["test.first:1", "test.first:2", "test.last:cv"]);
  });

  it("takes a job abandoned by a runner that died once its lease is over, and runs it once", async () => {
    await enqueueJob(database.db, { queue: "test.effects", key: "a" });
    // What a runner that claimed the job and died leaves behind.
    await database.db.execute(
      sql`UPDATE jobs SET attempts = 1, lease = gen_random_uuid(), locked_until = now() + interval '1 hour'`,
    );
    await runDueJobs(database.db, [writing("test.effects")]);
    expect(await effects()).toEqual([]);
    await database.db.execute(sql`UPDATE jobs SET locked_until = now() - interval '1 second'`);
    await runDueJobs(database.db, [writing("test.effects")]);
    await runDueJobs(database.db, [writing("test.effects")]);
    expect(await effects()).toEqual(["a"]);
    expect(await jobRows()).toEqual([]);
  });

  it("gives up a job whose last attempt was abandoned", async () => {
    await enqueueJob(database.db, { queue: "test.effects", key: "a", maxAttempts: 1 });
    await database.db.execute(
      sql`UPDATE jobs SET attempts = 1, lease = gen_random_uuid(), locked_until = now() - interval '1 second'`,
    );
    await runDueJobs(database.db, [writing("test.effects")]);
    expect(await effects()).toEqual([]);
    expect(await jobRows()).toMatchObject([
      { failed: true, lastError: "stopped while running, 1 times" },
    ]);
  });

  it("runs work outside the database, then removes the job", async () => {
    await enqueueJob(database.db, { queue: "test.outside", key: "a", payload: { n: 7 } });
    const seen: unknown[] = [];
    await runDueJobs(database.db, [
      {
        queue: "test.outside",
        leaseSeconds: 60,
        outside: async (job) => {
          seen.push(job.payload);
        },
      },
    ]);
    expect(seen).toEqual([{ n: 7 }]);
    expect(await jobRows()).toEqual([]);
  });
});

describe("schedules", () => {
  it("add their job once per interval, however many runners try", async () => {
    const handlers = [writing("test.every-minute", { everySeconds: 60 })];
    await addScheduledJobs(database.db, handlers);
    await addScheduledJobs(database.db, handlers);
    expect(await jobRows()).toMatchObject([{ queue: "test.every-minute", key: "scheduled" }]);
    await runDueJobs(database.db, handlers);
    await addScheduledJobs(database.db, handlers);
    expect(await jobRows()).toEqual([]);
    // The interval passes.
    await database.db.execute(sql`UPDATE job_schedules SET next_run_at = now()`);
    await addScheduledJobs(database.db, handlers);
    await runDueJobs(database.db, handlers);
    expect(await effects()).toEqual(["scheduled", "scheduled"]);
  });
});

describe("the runner", () => {
  it("is woken by a committed job and stops cleanly", async () => {
    const runner = await startJobRunner({
      db: database.db,
      listen: database.listen,
      logger: { error: () => {} },
      handlers: [writing("test.effects")],
    });
    try {
      await database.db.transaction((tx) =>
        enqueueJob(tx, { queue: "test.effects", key: "woken" }),
      );
      await expect.poll(effects, { timeout: 10_000 }).toEqual(["woken"]);
    } finally {
      await runner.stop();
    }
  });

  // A runner in another process exists only on a PostgreSQL server: the embedded database
  // belongs to one process.
  if (usingServer())
    it("a runner killed mid-job leaves no effect, and the job runs exactly once afterwards", async () => {
      await enqueueJob(database.db, { queue: "test.effects", key: "once" });
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "tests/support/jobs/dying-runner.ts", database.url as string],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("inside")) resolve();
        });
        child.once("exit", () => reject(new Error("the runner ended before its job")));
      });
      // Its effect is written but not committed when the process dies.
      child.kill("SIGKILL");
      await exited;
      expect(await effects()).toEqual([]);
      expect(await jobRows()).toMatchObject([{ key: "once", attempts: 1 }]);

      // A restarted runner: nothing before the lease (1 s) is over, then the job, once.
      await runDueJobs(database.db, [writing("test.effects")]);
      expect(await effects()).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await runDueJobs(database.db, [writing("test.effects")]);
      await runDueJobs(database.db, [writing("test.effects")]);
      expect(await effects()).toEqual(["once"]);
      expect(await jobRows()).toEqual([]);
    }, 60_000);
});
