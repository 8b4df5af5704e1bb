import { randomUUID } from "node:crypto";
import { type SQL, sql } from "drizzle-orm";
import { type Queryable, queryRows } from "~db/client";
import type { Clock } from "./clock.server";
import type { Logger } from "./logger.server";

/**
 * Background work, one way for every feature (decision 043): a job is a row of `jobs`, added in
 * the transaction of the write that calls for it, run once across all server instances, retried
 * with a growing pause when it fails, and still there after a restart.
 *
 * - A job with an effect in the database runs `inTransaction`: the effect and the job's removal
 *   commit together, and the runner holds the job's row lock meanwhile, so the effect happens
 *   exactly once however many instances run and wherever one dies.
 * - A job that works outside the database (reading another server) runs `outside`, then its
 *   removal commits: a process that dies in between leaves the job to run again once its lease
 *   ends, so such work must be idempotent.
 * - A queue with `everySeconds` gets its job added that often, once across all instances
 *   (`job_schedules`).
 * - Given the app's clock (decision 054), a job is due when its `run_at` has come by the app's
 *   time, and a retry waits from the app's time; leases and schedules keep real time.
 */

/** The NOTIFY channel that wakes the runners once an adding transaction commits. */
export const JOBS_CHANNEL = "jobs";

export type JobInput = {
  queue: string;
  /** Same queue and key: one job. Added again while it waits, it stays one; while it runs, it runs once more afterwards. */
  key?: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
};

export type Job = {
  id: string;
  queue: string;
  key: string;
  payload: Record<string, unknown>;
  /** 1 on the first run. */
  attempts: number;
};

type JobCommon = {
  queue: string;
  /** How long a claimed job is left alone before another instance takes it as abandoned. */
  leaseSeconds: number;
  /** Jobs claimed at once (all handed to one `inTransaction` call). */
  batch?: number;
  /** Queues whose due jobs go first: this queue waits while any of them has one. */
  after?: string[];
  /** A schedule: the runners add this queue's job that often, once across all instances. */
  everySeconds?: number;
};

export type QueueHandler = JobCommon &
  (
    | { inTransaction: (tx: Queryable, jobs: Job[]) => Promise<void> }
    | { outside: (job: Job) => Promise<void> }
  );

/**
 * The INSERT that adds a job, for a statement of the caller's: with `from`, one job per row of it
 * (a CTE of the same statement), so a job can be added only if a write in that statement happened.
 */
export function jobInsertSql(job: JobInput, from?: SQL): SQL {
  const values = sql`${job.queue}, ${job.key ?? randomUUID()}, ${JSON.stringify(job.payload ?? {})}::jsonb,
      coalesce(${job.runAt?.toISOString() ?? null}::timestamptz, now()), ${job.maxAttempts ?? 5}`;
  return sql`
    INSERT INTO jobs (queue, key, payload, run_at, max_attempts)
    ${from ? sql`SELECT ${values} FROM ${from}` : sql`VALUES (${values})`}
    ON CONFLICT (queue, key) WHERE failed_at IS NULL
    DO UPDATE SET revision = jobs.revision + 1, run_at = least(jobs.run_at, excluded.run_at)`;
}

/**
 * The DELETE that drops a job still waiting (no runner has taken it), for a statement of the
 * caller's: work done early removes the job that was its safety net, never waiting for a runner.
 * (`failed_at IS NULL` lets it use the waiting jobs' unique index.)
 */
export const jobDropSql = (queue: string, key: string): SQL => sql`
  DELETE FROM jobs WHERE id IN (
    SELECT id FROM jobs WHERE queue = ${queue} AND key = ${key} AND failed_at IS NULL
      AND lease IS NULL
    FOR UPDATE SKIP LOCKED)`;

/** The expression that wakes the runners of `queue` once the statement's transaction commits. */
export const jobWakeSql = (queue: string): SQL => sql`pg_notify(${JOBS_CHANNEL}, ${queue})`;

/**
 * Adds a job in the caller's transaction, in one statement; the runners hear of it when that
 * transaction commits. A job added for later (`runAt`) wakes no one: the runners' rounds find it.
 */
export async function enqueueJob(tx: Queryable, job: JobInput): Promise<void> {
  if (job.runAt) await tx.execute(jobInsertSql(job));
  else
    await tx.execute(
      sql`WITH added AS (${jobInsertSql(job)} RETURNING 1) SELECT ${jobWakeSql(job.queue)}`,
    );
}

type Claimed = Job & { revision: number; lease: string };

/** The instant a job's `run_at` is compared with: the app's clock when given, else the database's. */
const dueNow = (clock: Clock | undefined): SQL =>
  clock ? sql`${clock.now().toISOString()}::timestamptz` : sql`now()`;

/** Takes up to `batch` due jobs of a queue for this runner, and counts the attempt. */
async function claimJobs(db: Queryable, handler: QueueHandler, clock?: Clock): Promise<Claimed[]> {
  const now = dueNow(clock);
  const lease = randomUUID();
  const waitFor = handler.after?.length
    ? sql`AND NOT EXISTS (
        SELECT 1 FROM jobs AS first
        WHERE first.queue IN (${sql.join(
          handler.after.map((queue) => sql`${queue}`),
          sql`, `,
        )}) AND first.failed_at IS NULL AND first.run_at <= ${now})`
    : sql``;
  return db.transaction(async (tx) => {
    // A job whose last attempt was abandoned (its process died) will not be taken again.
    await tx.execute(sql`
      UPDATE jobs SET failed_at = now(), lease = NULL,
        last_error = coalesce(last_error, 'stopped while running, ' || attempts || ' times')
      WHERE queue = ${handler.queue} AND failed_at IS NULL AND attempts >= max_attempts
        AND locked_until < now()`);
    return queryRows<Claimed>(
      tx,
      sql`UPDATE jobs SET attempts = attempts + 1, lease = ${lease},
          locked_until = now() + make_interval(secs => ${handler.leaseSeconds})
        WHERE id IN (
          SELECT id FROM jobs
          WHERE queue = ${handler.queue} AND failed_at IS NULL AND run_at <= ${now}
            AND attempts < max_attempts AND (locked_until IS NULL OR locked_until < now())
            ${waitFor}
          ORDER BY run_at, id
          LIMIT ${handler.batch ?? 1}
          FOR UPDATE SKIP LOCKED)
        RETURNING id::text, queue, key, payload, attempts, revision, lease::text`,
    );
  });
}

/**
 * Removes the jobs that are still this runner's, in the caller's transaction. A job added again
 * while it ran (its revision moved) is released to run once more instead.
 */
async function completeJobs(tx: Queryable, jobs: Claimed[]) {
  for (const job of jobs) {
    const removed = await queryRows<{ id: string }>(
      tx,
      sql`DELETE FROM jobs WHERE id = ${job.id} AND lease = ${job.lease}
        AND revision = ${job.revision} RETURNING id::text`,
    );
    if (removed.length === 0)
      await tx.execute(sql`
        UPDATE jobs SET lease = NULL, locked_until = NULL, attempts = 0
        WHERE id = ${job.id} AND lease = ${job.lease}`);
  }
}

/** Locks the claimed jobs' rows for the effect's transaction; drops those no longer ours. */
async function holdJobs(tx: Queryable, jobs: Claimed[]): Promise<Claimed[]> {
  const held = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id::text FROM jobs
      WHERE (id, lease) IN (${sql.join(
        jobs.map((job) => sql`(${job.id}::bigint, ${job.lease}::uuid)`),
        sql`, `,
      )})
      FOR UPDATE`,
  );
  const ids = new Set(held.map((row) => row.id));
  return jobs.filter((job) => ids.has(job.id));
}

/** A failed attempt: the error is kept, and the job waits 30 s, 2 min, 8 min … (at most 6 h). */
async function failJobs(db: Queryable, jobs: Claimed[], error: unknown, clock?: Clock) {
  const message = error instanceof Error ? error.message : String(error);
  for (const job of jobs) {
    const pause = Math.min(30 * 4 ** (job.attempts - 1), 6 * 3600);
    await db.execute(sql`
      UPDATE jobs SET lease = NULL, locked_until = NULL, last_error = ${message.slice(0, 2000)},
        run_at = ${dueNow(clock)} + make_interval(secs => ${pause}),
        failed_at = CASE WHEN attempts >= max_attempts THEN now() END
      WHERE id = ${job.id} AND lease = ${job.lease}`);
  }
}

/** Runs one batch of a queue; false when none was due. Errors are recorded on the jobs. */
async function runBatch(
  db: Queryable,
  handler: QueueHandler,
  onError: (e: unknown) => void,
  clock?: Clock,
) {
  const claimed = await claimJobs(db, handler, clock);
  if (claimed.length === 0) return false;
  try {
    if ("inTransaction" in handler) {
      await db.transaction(async (tx) => {
        const held = await holdJobs(tx, claimed);
        if (held.length > 0) await handler.inTransaction(tx, held.map(publicJob));
        await completeJobs(tx, held);
      });
    } else {
      for (const job of claimed) await handler.outside(publicJob(job));
      await db.transaction((tx) => completeJobs(tx, claimed));
    }
  } catch (error) {
    await failJobs(db, claimed, error, clock);
    onError(error);
  }
  return true;
}

const publicJob = ({ id, queue, key, payload, attempts }: Claimed): Job => ({
  id,
  queue,
  key,
  payload,
  attempts,
});

/** Adds each schedule's job when its time has come; one instance wins each interval. */
export async function addScheduledJobs(db: Queryable, handlers: QueueHandler[]) {
  const schedules = handlers.flatMap(({ queue, everySeconds }) =>
    everySeconds ? [{ queue, everySeconds }] : [],
  );
  if (schedules.length === 0) return;
  await db.transaction(async (tx) => {
    for (const { queue, everySeconds } of schedules) {
      await tx.execute(sql`
        INSERT INTO job_schedules (queue, next_run_at) VALUES (${queue}, now())
        ON CONFLICT (queue) DO NOTHING`);
      const due = await queryRows<{ queue: string }>(
        tx,
        sql`UPDATE job_schedules SET next_run_at = now() + make_interval(secs => ${everySeconds})
          WHERE queue = ${queue} AND next_run_at <= now() RETURNING queue`,
      );
      if (due.length > 0) await enqueueJob(tx, { queue, key: "scheduled", maxAttempts: 1 });
    }
  });
}

/**
 * Runs every due job of the given queues until none is left, earlier queues first: what tests
 * call instead of waiting for a runner, and what a runner's round does. With `clock`, "due" is by
 * the app's time.
 */
export async function runDueJobs(
  db: Queryable,
  handlers: QueueHandler[],
  onError: (error: unknown, queue: string) => void = (error) => {
    throw error;
  },
  options: { clock?: Clock } = {},
): Promise<number> {
  let batches = 0;
  for (let i = 0; i < handlers.length; ) {
    const handler = handlers[i] as QueueHandler;
    const ran = await runBatch(
      db,
      handler,
      (error) => onError(error, handler.queue),
      options.clock,
    );
    if (ran) batches++;
    i = ran ? 0 : i + 1;
  }
  return batches;
}

export type QueueRun = {
  queue: string;
  /** Batches of jobs taken and run (a failed batch counts: its error is in `errors`). */
  batches: number;
  /** The queue has a schedule, and its job was added now, whatever its next time was. */
  scheduled: boolean;
  errors: string[];
};

/** Thrown by `runQueuesNow` for names that no handler has; nothing ran. */
export class UnknownQueueError extends Error {
  override name = "UnknownQueueError";
  constructor(readonly queues: string[]) {
    super(`No job queue is named ${queues.join(", ")}.`);
  }
}

/**
 * Runs the named queues' work now, once, in the order given (local `/dev/jobs/run`, decision 054):
 * a queue with a schedule gets its job added whatever its next time, then each queue's due jobs
 * run until none is left. Failures are recorded on the jobs, as a runner records them, and
 * reported, not thrown. A queue that waits for another (`after`) still waits.
 */
export async function runQueuesNow(
  db: Queryable,
  handlers: QueueHandler[],
  names: string[],
  options: { clock?: Clock } = {},
): Promise<QueueRun[]> {
  const unknown = names.filter((name) => !handlers.some((h) => h.queue === name));
  if (unknown.length > 0) throw new UnknownQueueError(unknown);
  const runs: QueueRun[] = [];
  for (const name of new Set(names)) {
    const handler = handlers.find((h) => h.queue === name) as QueueHandler;
    const scheduled = Boolean(handler.everySeconds);
    if (scheduled)
      await db.transaction((tx) =>
        enqueueJob(tx, { queue: name, key: "scheduled", maxAttempts: 1 }),
      );
    const errors: string[] = [];
    const batches = await runDueJobs(
      db,
      [handler],
      (error) => errors.push(error instanceof Error ? error.message : String(error)),
      options,
    );
    runs.push({ queue: name, batches, scheduled, errors });
  }
  return runs;
}

export type JobRunner = { stop(): Promise<void> };

/**
 * Starts this instance's runner: each queue has its own lane, woken when a job is added (NOTIFY),
 * every `pollSeconds` (retries and schedules), and a moment after start. Every instance runs the
 * same handlers. `stop` waits for the
 * running batches.
 */
export async function startJobRunner(options: {
  db: Queryable;
  listen: (channel: string, onPayload: (payload: string) => void) => Promise<() => Promise<void>>;
  logger: Pick<Logger, "error">;
  handlers: QueueHandler[];
  pollSeconds?: number;
  /** The app's clock: jobs are due by its time (a local app's `/dev/clock` moves it). */
  clock?: Clock;
}): Promise<JobRunner> {
  const { db, logger, handlers, clock } = options;
  let stopped = false;
  const lanes = new Map<string, { running: Promise<void> | null; again: boolean }>();
  const logError = (error: unknown, queue: string) =>
    logger.error({ err: error, queue }, `job in ${queue} failed`);

  const wake = (handler: QueueHandler) => {
    const lane = lanes.get(handler.queue) ?? { running: null, again: false };
    lanes.set(handler.queue, lane);
    if (stopped) return;
    if (lane.running) {
      lane.again = true;
      return;
    }
    lane.running = runDueJobs(db, [handler], logError, { clock })
      .then((batches) => {
        // A queue that waits for this one may be due now that it is empty.
        if (batches > 0) for (const h of handlers) if (h.after?.includes(handler.queue)) wake(h);
      })
      .catch((error: unknown) => logError(error, handler.queue))
      .finally(() => {
        lane.running = null;
        if (lane.again) {
          lane.again = false;
          wake(handler);
        }
      });
  };
  const round = () => {
    addScheduledJobs(db, handlers)
      .catch((error: unknown) => logger.error({ err: error }, "adding scheduled jobs failed"))
      .finally(() => {
        for (const handler of handlers) wake(handler);
      });
  };
  const stopListening = await options.listen(JOBS_CHANNEL, (queue) => {
    const handler = handlers.find((h) => h.queue === queue);
    if (handler) wake(handler);
  });
  const timer = setInterval(round, (options.pollSeconds ?? 10) * 1000);
  timer.unref();
  // The first round waits a moment, so a starting instance answers its readiness check first.
  const first = setTimeout(round, 3000);
  first.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      await stopListening();
      await Promise.all([...lanes.values()].map((lane) => lane.running));
    },
  };
}
