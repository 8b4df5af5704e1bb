import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import {
  type PgDatabase,
  PgDialect,
  type PgQueryResultHKT,
  PgTransaction,
} from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

/** Column names: the schema's camelCase keys are snake_case in SQL, on every connection. */
const CASING = "snake_case";
/** Builds SQL text outside a connection, as every connection does (queryRowsPrepared names it). */
const dialect = new PgDialect({ casing: CASING });

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A database or an open transaction: domain functions accept either. */
export type Queryable = Pick<
  Database,
  "select" | "insert" | "update" | "delete" | "execute" | "transaction"
>;

export type DatabaseHandle = {
  db: Database;
  driver: "pglite" | "postgres";
  /** Applies the committed SQL migrations; safe to run from several instances at once. */
  migrate(): Promise<void>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * Receives NOTIFY payloads on `channel` (from this process or any other on the same database).
   * Resolves once listening; the returned function stops.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

export type DatabaseOptions =
  | { driver: "postgres"; url: string; poolSize?: number }
  | {
      driver: "pglite";
      dataDir?: string;
      /** Starts from this copy of a data folder (from `migratedPgliteImage`) instead of an empty one. */
      loadDataDir?: Blob;
    };

/** Walks up from this module to the folder holding GigLedger's package.json (works in src and build). */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "gigledger") return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("Cannot find the GigLedger project root");
    dir = parent;
  }
}

export const migrationsFolder = () => path.join(projectRoot(), "db", "migrations");

const MIGRATION_LOCK_ID = 7_420_001;

export function openDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.driver === "postgres") {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? defaultPoolSize(),
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server drops (restart, failover, admin) emits 'error' on the pool;
    // unhandled, that would crash the process. The pool discards the client and opens a new one
    // for the next query, so there is nothing else to do.
    pool.on("error", () => {});
    const db = drizzleNodePg(pool, { schema, casing: CASING }) as unknown as Database;
    return {
      db,
      driver: "postgres",
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
          const lockedDb = drizzleNodePg(client, { schema, casing: CASING });
          await migrateNodePg(lockedDb, { migrationsFolder: migrationsFolder() });
        } finally {
          await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => {});
          client.release();
        }
      },
      async ping() {
        await pool.query("SELECT 1");
      },
      listen: (channel, onPayload) => listenOnServer(options.url, channel, onPayload),
      async close() {
        await pool.end();
      },
    };
  }

  if (options.dataDir) {
    // PGlite creates only the last folder of its path.
    mkdirSync(path.dirname(options.dataDir), { recursive: true });
  }
  const client = embeddedClient({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  const db = drizzlePglite(client, { schema, casing: CASING }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    migrate: () => migrateEmbedded(client),
    async ping() {
      await db.execute(sql`SELECT 1`);
    },
    async listen(channel, onPayload) {
      const stop = await client.listen(channel, onPayload);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

/** An embedded database with the extensions our migrations use. */
function embeddedClient(options: { dataDir?: string; loadDataDir?: Blob } = {}) {
  // Options go in one object: `new PGlite(undefined, options)` silently drops the extensions.
  return new PGlite({ ...options, extensions: { pg_trgm } });
}

function migrateEmbedded(client: PGlite) {
  return migratePglite(drizzlePglite(client, { schema, casing: CASING }), {
    migrationsFolder: migrationsFolder(),
  });
}

/**
 * An in-memory embedded database with every migration applied, copied out as an uncompressed
 * tarball: opening a copy (`loadDataDir`) takes a fraction of the time migrating one does.
 */
export async function migratedPgliteImage(): Promise<Blob> {
  const client = embeddedClient();
  try {
    await migrateEmbedded(client);
    return await client.dumpDataDir("none");
  } finally {
    await client.close();
  }
}

/**
 * LISTEN needs a connection of its own that stays open (pool connections come and go). It
 * reconnects after a drop, so a restarted database server does not silence realtime for good.
 */
async function listenOnServer(url: string, channel: string, onPayload: (payload: string) => void) {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name: ${channel}`);
  let client: pg.Client | null = null;
  let stopped = false;
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on("notification", (n) => {
      if (n.channel === channel && n.payload !== undefined) onPayload(n.payload);
    });
    c.on("error", () => {
      client = null;
      void c.end().catch(() => {});
      if (!stopped) setTimeout(() => void connect().catch(() => {}), 1000);
    });
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => {});
  };
}

/**
 * Connections an instance opens to PostgreSQL unless DATABASE_POOL_SIZE says: twice this
 * machine's cores, at least 4 and at most 10 (decision 072). More statements at once than the
 * cores can run only wait inside PostgreSQL, where they slow each other; here they wait in line
 * for a connection instead. On two cores, 4 rather than 10 took the discovery pages' p95 at 10
 * requests in flight from about 60 to 45 ms.
 */
export const defaultPoolSize = () => Math.min(10, Math.max(4, 2 * availableParallelism()));

/** The embedded PGlite in DATA_DIR unless a PostgreSQL URL is given. */
export function databaseOptionsFor(config: {
  databaseUrl?: string;
  databasePoolSize?: number;
  dataDir: string;
}): DatabaseOptions {
  return config.databaseUrl
    ? { driver: "postgres", url: config.databaseUrl, poolSize: config.databasePoolSize }
    : { driver: "pglite", dataDir: path.join(config.dataDir, "pglite") };
}

/**
 * Rows of a raw SQL query; both drivers answer `{ rows }` (the pg-proxy that records statements
 * for the plan tests answers the rows themselves).
 */
export async function queryRows<T>(db: Queryable, query: SQL): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/** The rows of a driver's answer: `{ rows }`, or the rows themselves (the plan tests' pg-proxy). */
const rowsOf = <T>(result: unknown): T[] =>
  Array.isArray(result) ? result : (result as { rows: T[] }).rows;

/**
 * Rows of a raw SQL query whose text is the same whatever its input (every value a parameter, a
 * list as one array: `uuidArray`) and whose best plan does not depend on the values (the rows of
 * a page's few ids, by key). It is sent as a named prepared statement, named after its text: each
 * connection parses it once and PostgreSQL soon reuses one plan, instead of parsing and planning
 * it on every request (decision 071). Not for searches whose plan rests on their values: a plan
 * made once for any values can be far worse for some (a generic plan of words + location + date
 * took 217 ms where its own took 9). The words' walk (decision 075) and every match of words
 * alone (086) are written so that theirs does not. PGlite runs it as queryRows does.
 */
export async function queryRowsPrepared<T>(db: Pick<Database, "_">, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = `gl_${createHash("sha256").update(built.sql).digest("base64url").slice(0, 24)}`;
  return rowsOf<T>(await db._.session.prepareQuery(built, undefined, name, false).execute());
}

/** Ids (each already checked with isUuid) as one `uuid[]` parameter: `id = ANY(${uuidArray(ids)})`. */
export const uuidArray = (ids: readonly string[]): SQL => sql`${`{${ids.join(",")}}`}::uuid[]`;

/**
 * Independent reads: side by side on a pool, one after another in a transaction. A transaction
 * holds one connection, where overlapping queries only queue (and node-postgres deprecates them:
 * pg@9 refuses them). Use it instead of `Promise.all` in any function that may get a transaction.
 */
export async function readEach<T extends readonly unknown[]>(
  db: Queryable,
  reads: { [K in keyof T]: () => PromiseLike<T[K]> },
): Promise<T> {
  if (!(db instanceof PgTransaction))
    return (await Promise.all(reads.map((read) => read()))) as unknown as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as unknown as T;
}
