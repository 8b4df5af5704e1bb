import { randomBytes } from "node:crypto";
import pg from "pg";
import { type DatabaseHandle, migratedPgliteImage, openDatabase } from "~db/client";

let migratedImage: Promise<Blob> | null = null;

/**
 * A fresh, migrated database for one test file: an in-memory PGlite by default, or a newly created
 * database on the PostgreSQL server at TEST_DATABASE_URL when the "postgres" test project runs
 * (dropped again by `dispose`; `url` reaches it from another process).
 */
export async function createTestDatabase(): Promise<
  DatabaseHandle & { dispose(): Promise<void>; url?: string }
> {
  const serverUrl =
    process.env.GIGLEDGER_TEST_DB === "postgres" ? process.env.TEST_DATABASE_URL : undefined;
  if (!serverUrl) {
    // Every file in a worker starts from one migrated image (test files share a worker's modules:
    // vitest.config.ts), already as migrated as `migrate()` would make it.
    migratedImage ??= migratedPgliteImage();
    const handle = openDatabase({ driver: "pglite", loadDataDir: await migratedImage });
    return { ...handle, dispose: () => handle.close() };
  }
  const name = `gigledger_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = openDatabase({ driver: "postgres", url: url.href, poolSize: 20 });
  await handle.migrate();
  return {
    ...handle,
    /** Where another process reaches the same database. */
    url: url.href,
    async dispose() {
      await handle.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export const usingServer = () =>
  process.env.GIGLEDGER_TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);
