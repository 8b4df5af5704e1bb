// `npm run bench:cv`: the signed CV's costs (decision 018).
//  1. Time to issue one credential: build and sign an Open Badges credential (eddsa-rdfc-2022).
//  2. p95 of GET /artist/{slug}/cv.json for an artist with 500 verified sessions, on the
//     production build, on PGlite and (with BENCH_DATABASE_URL) on a fresh PostgreSQL database.
//     Target: ≤ 50 ms. Also how long the worker takes to sign the 500 credentials and the CV.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { credentialOf, type SessionClaims } from "~/features/credentials/credential";
import { didOf } from "~/features/credentials/did";
import { drainCredentialQueue } from "~/features/credentials/issuance.server";
import { createIssuer } from "~/features/credentials/signer.server";
import { queueCredentialRefresh } from "~/features/verification/credential-queue.server";
import { generateSecretKeyMultibase } from "~/lib/ed25519-key.server";
import { loadEnv } from "~/lib/env.server";
import { type DatabaseHandle, openDatabase, queryRows } from "~db/client";
import { peerVerifications } from "~db/schema";
import { createArtist, createEstablishedArtist, createSession } from "~seed/factories";
import { freePort } from "../tests/support/free-port";
import { createBenchDatabase } from "./bench-setup";

const SESSIONS = 500;
const REQUESTS = 300;
const CONCURRENCY = 10;
const TARGET_MS = 50;
const key = generateSecretKeyMultibase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function timeIssuing() {
  const appUrl = new URL("https://gigledger.example");
  const issuer = await createIssuer(didOf(appUrl), key);
  const claims: SessionClaims = {
    sessionId: randomUUID(),
    artistProfileId: randomUUID(),
    artistSlug: "maya-lindqvist",
    artistName: "Maya Lindqvist",
    timeZone: "Asia/Kolkata",
    title: "Evening set — Blue Note",
    sessionType: "performance",
    startTime: "2026-10-16T14:30:00.000Z",
    durationMinutes: 120,
    location: "Mumbai",
    level: "Peer-confirmed",
    verifiedBy: ["Arjun Mehta", "The Copper Wires"],
    verifiedAt: "2026-10-17T10:00:00.000Z",
    evidence: [
      {
        url: `${appUrl.origin}/files/a.webp`,
        name: "a.webp",
        mediaType: "photo",
        sha256: "ab".repeat(32),
      },
    ],
  };
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const started = performance.now();
    await issuer.signCredential(
      credentialOf(claims, { appUrl, did: issuer.did, credentialId: randomUUID(), statusIndex: i }),
    );
    times.push(performance.now() - started);
  }
  const warm = times.slice(10);
  console.log(
    `Issue one credential: first ${ms(times[0] ?? NaN)}, then median ${ms(percentile(warm, 50))}, p95 ${ms(percentile(warm, 95))} (50 runs)`,
  );
}

/**
 * An artist with 500 Peer-confirmed sessions, one a day, signed by the worker; returns the slug.
 * Each is confirmed a day after it, through share links, by two established fellow artists
 * (decision 046): 180 of them, each confirming this artist once every 90 days, so every
 * confirmation counts.
 */
async function prepare(database: DatabaseHandle, env: ReturnType<typeof loadEnv>) {
  await database.migrate();
  const artist = await createArtist({ db: database.db }, { name: `Bench Artist ${Date.now()}` });
  const peers: string[] = [];
  for (let p = 0; p < 180; p++)
    peers.push(
      (
        await createEstablishedArtist(
          { db: database.db },
          { name: `Bench Peer ${p} ${Date.now()}`, daysOld: 1000 },
        )
      ).artistId,
    );
  const start = Date.parse("2025-01-01T14:30:00Z");
  for (let i = 0; i < SESSIONS; i++) {
    const startTime = new Date(start + i * 86_400_000);
    const id = await createSession(database.db, artist.artistId, {
      title: `Gig ${i + 1}`,
      startTime,
    });
    for (const k of [0, 1])
      await database.db.insert(peerVerifications).values({
        sessionId: id,
        verifiedByArtistId: peers[(i % 90) * 2 + k] as string,
        trustScore: 100,
        createdAt: new Date(startTime.getTime() + 86_400_000),
      });
    await queueCredentialRefresh(database.db, id);
  }
  const started = performance.now();
  const result = await drainCredentialQueue({ db: database.db, env }, { batch: 25 });
  console.log(
    `  worker: signed ${result.signed} credentials and the CV in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const [row] = await queryRows<{ slug: string }>(
    database.db,
    sql`SELECT slug FROM artist_profiles WHERE id = ${artist.artistId}`,
  );
  return row?.slug ?? "";
}

async function startServer(env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, ["build/server/main.js"], {
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      SEED_DEMO_DATA: "false",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { child, base };
    } catch {}
    await sleep(100);
  }
  throw new Error("server did not start");
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

async function measure(base: string, slug: string, label: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  // Raw bytes as sent (gzip, as browsers ask): the time is the server's, not the client's unzip.
  const get = (bust: string) =>
    new Promise<{ ms: number; bytes: number }>((resolve, reject) => {
      const started = performance.now();
      const req = http.get(
        `${base}/artist/${slug}/cv.json${bust}`,
        { headers: { "Accept-Encoding": "gzip" }, agent },
        (res) => {
          let bytes = 0;
          res.on("data", (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on("end", () => {
            if (res.statusCode !== 200) reject(new Error(`cv.json answered ${res.statusCode}`));
            else resolve({ ms: performance.now() - started, bytes });
          });
        },
      );
      req.on("error", reject);
    });
  for (let i = 0; i < 20; i++) await get(`?warm=${i}`);
  // Each request its own address: the one-second microcache never answers, the database does.
  const sequential: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const r = await get(`?n=${i}`);
    sequential.push(r.ms);
    bytes = r.bytes;
  }
  const concurrent: number[] = [];
  let n = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (n < REQUESTS) {
        n++;
        concurrent.push((await get(`?c=${n}`)).ms);
      }
    }),
  );
  const p95 = percentile(sequential, 95);
  console.log(
    `  GET /artist/${slug}/cv.json (${SESSIONS} credentials, ${(bytes / 1024).toFixed(0)} KiB sent gzipped): one at a time p50 ${ms(percentile(sequential, 50))}, p95 ${ms(p95)} ${p95 <= TARGET_MS ? "✓" : "✗"} (target ≤ ${TARGET_MS} ms); ${CONCURRENCY} at a time p50 ${ms(percentile(concurrent, 50))}, p95 ${ms(percentile(concurrent, 95))}  [${label}]`,
  );
}

await timeIssuing();

{
  console.log("PGlite:");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "gl-bench-cv-"));
  const port = await freePort();
  const vars = {
    DATA_DIR: dataDir,
    APP_URL: `http://127.0.0.1:${port}`,
    CREDENTIAL_SIGNING_KEY: key,
  };
  const env = loadEnv({ NODE_ENV: "production", ...vars });
  const database = openDatabase({ driver: "pglite", dataDir: path.join(dataDir, "pglite") });
  const slug = await prepare(database, env);
  await database.close();
  const { child, base } = await startServer(vars, port);
  try {
    await measure(base, slug, "PGlite");
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const serverUrl = process.env.BENCH_DATABASE_URL;
if (serverUrl) {
  console.log("PostgreSQL:");
  const benchDb = await createBenchDatabase(serverUrl, "gigledger_bench_cv");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "gl-bench-cv-"));
  const port = await freePort();
  const vars = {
    DATA_DIR: dataDir,
    DATABASE_URL: benchDb.url,
    APP_URL: `http://127.0.0.1:${port}`,
    CREDENTIAL_SIGNING_KEY: key,
  };
  const env = loadEnv({ NODE_ENV: "production", ...vars });
  const database = openDatabase({ driver: "postgres", url: benchDb.url });
  try {
    const slug = await prepare(database, env);
    await database.close();
    const { child, base } = await startServer(vars, port);
    try {
      await measure(base, slug, "PostgreSQL");
    } finally {
      await stop(child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await benchDb.drop();
  }
} else {
  console.log(
    "PostgreSQL: skipped (set BENCH_DATABASE_URL to a server, e.g. postgres://postgres@127.0.0.1:5432/postgres)",
  );
}
