// `npm run bench:jobs`: the background-job mechanism's costs (decision 043), on PGlite and (with
// BENCH_DATABASE_URL) on a fresh PostgreSQL database:
//  1. Adding a job inside a write's transaction (what every queueing write pays), per job.
//  2. Running 1,000 jobs whose effect is one row, one job per transaction and ten per transaction.
//  3. An idle runner's round (what each instance pays every 10 seconds with nothing to do).
import { sql } from "drizzle-orm";
import { enqueueJob, type QueueHandler, runDueJobs } from "~/lib/jobs.server";
import { type DatabaseHandle, openDatabase } from "~db/client";
import { createBenchDatabase } from "./bench-setup";

const JOBS = 1_000;
const ms = (v: number) => `${v.toFixed(2)} ms`;

async function measure(label: string, database: DatabaseHandle) {
  await database.migrate();
  await database.db.execute(sql`CREATE TABLE bench_effects (key text NOT NULL)`);
  const handler = (batch: number): QueueHandler => ({
    queue: "bench.effects",
    leaseSeconds: 60,
    batch,
    inTransaction: async (tx, jobs) => {
      for (const job of jobs) await tx.execute(sql`INSERT INTO bench_effects VALUES (${job.key})`);
    },
  });
  const rows: string[] = [];
  for (const batch of [1, 10]) {
    let start = performance.now();
    for (let i = 0; i < JOBS; i++)
      await database.db.transaction((tx) =>
        enqueueJob(tx, { queue: "bench.effects", key: `${batch}-${i}` }),
      );
    const add = (performance.now() - start) / JOBS;
    start = performance.now();
    await runDueJobs(database.db, [handler(batch)]);
    const run = (performance.now() - start) / JOBS;
    rows.push(`| ${label} | ${batch} | ${ms(add)} | ${ms(run)} |`);
  }
  const idle: number[] = [];
  for (let i = 0; i < 50; i++) {
    const start = performance.now();
    await runDueJobs(database.db, [handler(10), { ...handler(1), queue: "bench.other" }]);
    idle.push(performance.now() - start);
  }
  idle.sort((a, b) => a - b);
  rows.push(`| ${label} | idle round (2 queues), median | ${ms(idle[25] ?? NaN)} | |`);
  return rows;
}

const rows = ["| database | jobs per transaction | add a job | run a job |", "|---|---|---|---|"];
const embedded = openDatabase({ driver: "pglite" });
rows.push(...(await measure("PGlite", embedded)));
await embedded.close();
const serverUrl = process.env.BENCH_DATABASE_URL;
if (serverUrl) {
  const created = await createBenchDatabase(serverUrl, "gigledger_bench_jobs");
  const server = openDatabase({ driver: "postgres", url: created.url, poolSize: 4 });
  try {
    rows.push(...(await measure("PostgreSQL", server)));
  } finally {
    await server.close();
    await created.drop();
  }
}
console.log(rows.join("\n"));
