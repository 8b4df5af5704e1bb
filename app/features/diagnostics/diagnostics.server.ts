import { randomBytes } from "node:crypto";
import { lookup } from "node:dns/promises";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import { AUTH_BASE_PATH, trustedOrigins } from "~/lib/auth.server";
import type { AppContext } from "~/lib/context";
import type { Env } from "~/lib/env.server";
import { migrationsFolder, queryRows } from "~db/client";

/**
 * Where a deployment stands, step by step: the name resolves (dns), the public address is HTTPS
 * (ssl), the database migrations are applied (deployment), then live; "error" when the database
 * or file storage does not answer.
 */
export type DeploymentStage = "dns" | "ssl" | "deployment" | "live" | "error";

export type Diagnostics = {
  checkedAt: string;
  stage: DeploymentStage;
  stageReason: string;
  domain: {
    publicUrl: string;
    hostname: string;
    isPublic: boolean;
    https: boolean;
    /** null when the name was not looked up (a local app). */
    resolves: boolean | null;
  };
  database: {
    driver: "pglite" | "postgres";
    /** Host and database name only: never the user or password. */
    location: string;
    reachable: boolean;
    migrationsApplied: number | null;
    migrationsAvailable: number;
  };
  storage: { driver: "local" | "s3"; location: string; writable: boolean };
  mail: { transport: Env["mailTransport"]; server: string | null };
  auth: {
    basePath: string;
    trustedOrigins: string[];
    cookies: { secure: boolean; sameSite: "Lax"; httpOnly: true };
  };
};

type Ctx = Pick<AppContext, "db" | "env" | "storage">;

async function countMigrationFiles() {
  try {
    const journal = JSON.parse(
      await readFile(path.join(migrationsFolder(), "meta", "_journal.json"), "utf8"),
    ) as { entries: unknown[] };
    return journal.entries.length;
  } catch {
    return 0;
  }
}

async function checkDatabase(db: Ctx["db"]) {
  try {
    await db.execute(sql`SELECT 1`);
  } catch {
    return { reachable: false, migrationsApplied: null };
  }
  try {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`,
    );
    return { reachable: true, migrationsApplied: Number(row?.n ?? 0) };
  } catch {
    return { reachable: true, migrationsApplied: 0 };
  }
}

/** Writes and removes a tiny file: the only honest answer to "can uploads be stored?". */
async function checkStorage(storage: Ctx["storage"]) {
  const key = `diagnostics/probe-${randomBytes(6).toString("hex")}.txt`;
  try {
    await storage.put(key, Buffer.from("ok"), "text/plain");
    await storage.delete(key);
    return true;
  } catch {
    return false;
  }
}

async function resolves(hostname: string, timeoutMs = 2000) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      lookup(hostname).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Host and path of a connection URL, without credentials or query (which may hold a password). */
export function redactUrl(raw: string | undefined) {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return "(unreadable)";
  }
}

/** The deployment stage from what this server can see, first failing step first. */
export function deploymentStage(d: Omit<Diagnostics, "stage" | "stageReason" | "checkedAt">): {
  stage: DeploymentStage;
  stageReason: string;
} {
  if (!d.database.reachable)
    return { stage: "error", stageReason: "The database does not answer." };
  if (!d.storage.writable) return { stage: "error", stageReason: "File storage is not writable." };
  if (d.domain.resolves === false)
    return { stage: "dns", stageReason: `${d.domain.hostname} does not resolve yet.` };
  if (d.domain.isPublic && !d.domain.https)
    return {
      stage: "ssl",
      stageReason: "The public address is not HTTPS: cookies are not Secure.",
    };
  if ((d.database.migrationsApplied ?? 0) < d.database.migrationsAvailable)
    return { stage: "deployment", stageReason: "Database migrations are still pending." };
  return {
    stage: "live",
    stageReason: d.domain.isPublic ? "Serving the public address." : "Running locally.",
  };
}

export async function collectDiagnostics(ctx: Ctx, now = new Date()): Promise<Diagnostics> {
  const { env } = ctx;
  const [db, migrationsAvailable, writable, dns] = await Promise.all([
    checkDatabase(ctx.db),
    countMigrationFiles(),
    checkStorage(ctx.storage),
    env.isPublic ? resolves(env.appUrl.hostname) : Promise.resolve(null),
  ]);
  const facts = {
    domain: {
      publicUrl: env.appUrl.origin,
      hostname: env.appUrl.hostname,
      isPublic: env.isPublic,
      https: env.isHttps,
      resolves: dns,
    },
    database: {
      driver: env.databaseUrl ? ("postgres" as const) : ("pglite" as const),
      location: redactUrl(env.databaseUrl) ?? "embedded (DATA_DIR/pglite)",
      ...db,
      migrationsAvailable,
    },
    storage:
      env.storage.driver === "s3"
        ? { driver: "s3" as const, location: `bucket ${env.storage.bucket}`, writable }
        : { driver: "local" as const, location: "DATA_DIR/files", writable },
    mail: {
      transport: env.mailTransport,
      server: env.mailTransport === "smtp" ? redactUrl(env.smtpUrl) : null,
    },
    auth: {
      basePath: AUTH_BASE_PATH,
      trustedOrigins: trustedOrigins(env),
      cookies: { secure: env.isHttps, sameSite: "Lax" as const, httpOnly: true as const },
    },
  };
  return { checkedAt: now.toISOString(), ...deploymentStage(facts), ...facts };
}
