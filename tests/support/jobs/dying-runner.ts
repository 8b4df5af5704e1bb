// A server instance's job runner that dies mid-job: run by jobs.server.test.ts as its own process
// (`tsx tests/support/jobs/dying-runner.ts <database url>`). Its handler writes the job's effect in
// the job's transaction, says "inside" on stdout and waits there until the test kills the process.
import { sql } from "drizzle-orm";
import { runDueJobs } from "~/lib/jobs.server";
import { openDatabase } from "~db/client";

const url = process.argv[2];
if (!url) throw new Error("usage: dying-runner.ts <database url>");
const database = openDatabase({ driver: "postgres", url, poolSize: 2 });
await runDueJobs(database.db, [
  {
    queue: "test.effects",
    leaseSeconds: 1,
    inTransaction: async (tx, jobs) => {
      for (const job of jobs) await tx.execute(sql`INSERT INTO job_effects VALUES (${job.key})`);
      process.stdout.write("inside\n");
      await new Promise(() => {});
    },
  },
]);
