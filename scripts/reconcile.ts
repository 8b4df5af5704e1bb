/**
 * `npm run reconcile [-- --day YYYY-MM-DD] [--json]`: the day's reconciliation report (design
 * money-and-terms §4.6) from the database this app uses (PGlite in DATA_DIR, or DATABASE_URL),
 * matched against the payment provider when payments are on. With PAYMENTS=local the provider is
 * the app's own /dev/psp: when the app is not running, the provider match is skipped with a note.
 * Exit 0 when the unexplained difference is ₹0.00 and the books are sound, 1 otherwise, 2 for a
 * usage error.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import {
  formatReport,
  type ReconcileProvider,
  reconcileProviderOf,
  reconciliationReport,
  reportPasses,
} from "~/features/payments/reconcile.server";
import { createLocalClock } from "~/lib/clock.server";
import { isIsoDate } from "~/lib/dates";
import { type Env, loadEnv } from "~/lib/env.server";
import { type DatabaseHandle, databaseOptionsFor, openDatabase } from "~db/client";
import { embeddedDatabaseBusy } from "./app-running";

export type ReconcileCliOptions = {
  env?: Env;
  /** An open database (tests); otherwise the one the environment names, closed at the end. */
  database?: DatabaseHandle;
  provider?: ReconcileProvider | null;
  now?: Date;
  print?: (text: string) => void;
};

export async function reconcileCli(
  argv: string[],
  options: ReconcileCliOptions = {},
): Promise<number> {
  const print = options.print ?? ((text: string) => console.log(text));
  const json = argv.includes("--json");
  const dayAt = argv.indexOf("--day");
  const day = dayAt >= 0 ? argv[dayAt + 1] : undefined;
  if (dayAt >= 0 && (!day || !isIsoDate(day))) {
    print("Usage: npm run reconcile -- [--day YYYY-MM-DD] [--json]");
    return 2;
  }
  const env = options.env ?? loadEnv();
  const where = databaseOptionsFor(env);
  const busy = options.database ? null : await embeddedDatabaseBusy(env, where);
  if (busy) {
    print(busy);
    return 2;
  }
  const database = options.database ?? openDatabase(where);
  try {
    const provider =
      options.provider === undefined ? reconcileProviderOf(env, 5_000) : options.provider;
    const report = await reconciliationReport(database.db, provider, {
      day,
      // A local app's clock may have been moved (/dev/clock): read it as the app does.
      now:
        options.now ??
        (env.isPublic ? new Date() : createLocalClock(path.join(env.dataDir, "clock.json")).now()),
      timeZone: env.timeZone,
    });
    print(json ? JSON.stringify(report, null, 2) : formatReport(report));
    return reportPasses(report) ? 0 : 1;
  } catch (error) {
    // 42P01: a database the app has never started on (no migrations, so no ledger).
    if (
      (error as { cause?: { code?: string } }).cause?.code === "42P01" ||
      (error as { code?: string }).code === "42P01"
    ) {
      print("This database has no ledger yet: start the app once (it migrates), then reconcile.");
      return 2;
    }
    throw error;
  } finally {
    if (!options.database) await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await reconcileCli(process.argv.slice(2));
}
