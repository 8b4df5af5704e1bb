import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { type SpawnedServer, spawnServer, waitUntilReady } from "../support/spawn-server";

// Each test starts one or two servers of its own (migrations, seeding): allow for a busy machine.
test.describe.configure({ timeout: 150_000 });

let dataDir: string;
test.beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "gigledger-lifecycle-"));
});
test.afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

test("stops cleanly on SIGTERM and starts again on the same embedded database without reseeding", async () => {
  const first = await spawnServer({ DATA_DIR: dataDir });
  await waitUntilReady(first);
  expect(first.output()).toContain("seeded demo data");
  const before = await (await fetch(`${first.url}/`)).text();

  first.process.kill("SIGTERM");
  expect(await first.exited).toBe(0);
  expect(first.output()).toContain('"msg":"stopped"');

  const second = await spawnServer({ DATA_DIR: dataDir });
  try {
    await waitUntilReady(second);
    expect(second.output()).not.toContain("seeded demo data");
    const after = await (await fetch(`${second.url}/`)).text();
    const featured = (html: string) =>
      [...html.matchAll(/href="(\/artist\/[^"]+)"/g)].map((m) => m[1]);
    expect(featured(after)).toEqual(featured(before));
  } finally {
    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  }
});

/** GET on a keep-alive agent; resolves with the status once the whole answer is read. */
function get(agent: http.Agent, url: string) {
  return new Promise<number>((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.once("end", () => resolve(res.statusCode ?? 0));
        res.once("error", reject);
      })
      .once("error", reject);
  });
}

test("on SIGTERM with open keep-alive connections, exits as soon as the requests in flight are answered", async () => {
  const server = await spawnServer({ DATA_DIR: dataDir, SEED_DEMO_DATA: "false" });
  try {
    await signalUnderKeepAliveLoad(server);
  } finally {
    if (server.process.exitCode === null && server.process.signalCode === null)
      server.process.kill("SIGKILL");
  }
});

async function signalUnderKeepAliveLoad(server: SpawnedServer) {
  await waitUntilReady(server);
  // Eight connections that each had an answer and stay open, idle, for the next request.
  const idle = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const statuses = await Promise.all(
    Array.from({ length: 8 }, () => get(idle, `${server.url}/healthz`)),
  );
  expect(statuses).toEqual(Array(8).fill(200));
  expect(Object.values(idle.freeSockets).flat().length).toBe(8);
  // And four clients that keep sending requests for a page on their keep-alive connections, as
  // under load: some are in flight at the signal. Each stops at its first error (the server gone)
  // or after 2,000 requests.
  const busy = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let answered = 0;
  const load = Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 2_000; i++) {
        const status = await get(busy, `${server.url}/discover`).catch(() => null);
        if (status === null) return;
        expect(status).toBe(200);
        answered++;
      }
    }),
  );
  await expect.poll(() => answered).toBeGreaterThan(20);

  const started = Date.now();
  server.process.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  const took = Date.now() - started;
  await load;
  idle.destroy();
  busy.destroy();
  // Before, connections kept alive after their answer held it until the 10 s limit.
  expect(took).toBeLessThan(2_000);
  const logs = server
    .output()
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { msg?: string; time?: number }];
      } catch {
        return [];
      }
    });
  const from = logs.find((l) => l.msg?.startsWith("shutting down"))?.time ?? 0;
  const to = logs.find((l) => l.msg === "stopped")?.time ?? Number.POSITIVE_INFINITY;
  expect(to - from).toBeLessThan(1_000);
}

test("refuses to start on a bad environment value, naming it", async () => {
  const server = await spawnServer({ DATA_DIR: dataDir, APP_TIME_ZONE: "Mars/Olympus" });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("APP_TIME_ZONE: must be an IANA time zone");
});

test("refuses a public APP_URL without an auth secret", async () => {
  const server = await spawnServer({
    DATA_DIR: dataDir,
    APP_URL: "https://gigledger.example",
    SMTP_URL: "smtp://127.0.0.1:2525",
  });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("BETTER_AUTH_SECRET: required when APP_URL");
});

// Like the Vitest "postgres" project: part of the suite whenever TEST_DATABASE_URL names a server.
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl)
  test("runs on a PostgreSQL server when DATABASE_URL is set, migrating it at start", async () => {
    const name = `gigledger_boot_${Date.now()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const server = await spawnServer({ DATA_DIR: dataDir, DATABASE_URL: url.href });
    try {
      await waitUntilReady(server);
      expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({
        status: "ok",
        database: "postgres",
      });
      const db = new pg.Client({ connectionString: url.href });
      await db.connect();
      const { rows } = await db.query(
        "SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations",
      );
      await db.end();
      expect(rows[0].n).toBeGreaterThanOrEqual(2);
      expect((await fetch(`${server.url}/`)).status).toBe(200);
    } finally {
      server.process.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
