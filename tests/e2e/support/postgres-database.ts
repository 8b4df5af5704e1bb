import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A fresh database on the PostgreSQL server at `serverUrl` (TEST_DATABASE_URL) and a data
 * directory, for an end-to-end test that runs its own app server on PostgreSQL (to reach the rows,
 * or to run two instances). `drop()` removes both, whatever the test left behind.
 */
export async function freshPostgresDatabase(serverUrl: string, label: string) {
  const name = `gigledger_e2e_${label}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `gigledger-${label}-`));
  return {
    url: url.href,
    dataDir,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end().catch(() => {});
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
