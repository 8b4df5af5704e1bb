import type { Env } from "~/lib/env.server";
import type { DatabaseOptions } from "~db/client";

/**
 * Why a script may not open the database now, or null: the embedded database takes one process at
 * a time, and opening it beside the running app (it answers at APP_URL) would harm it.
 */
export async function embeddedDatabaseBusy(
  env: Pick<Env, "appUrl">,
  where: Pick<DatabaseOptions, "driver">,
): Promise<string | null> {
  if (where.driver !== "pglite" || !(await isAnswering(env.appUrl))) return null;
  return (
    `The app at ${env.appUrl.origin} is running on the embedded database in DATA_DIR: stop it ` +
    "first, or run both on PostgreSQL (DATABASE_URL) to do this while it runs."
  );
}

/** Whether the app answers at `appUrl` (its /healthz) within two seconds. */
async function isAnswering(appUrl: URL): Promise<boolean> {
  try {
    const response = await fetch(new URL("/healthz", appUrl), {
      signal: AbortSignal.timeout(2_000),
    });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
