// `npm run bench:money [-- --txns 1000000 --events 200 --burst 500]`: money through the platform
// on PostgreSQL (issue 41), in a scratch database created on BENCH_DATABASE_URL
// (default postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end. All traffic stays
// on 127.0.0.1.
//  a. Webhook → ledger: signed `payment_link.paid` events POSTed to an app instance (its own
//     process, bench/money-instance.ts, listening on 127.0.0.1) with its job runner running, 10 in
//     flight; the time from the POST to the `capture:` ledger row being visible. Goal p95 ≤ 50 ms.
//  b. Two instances (two processes, two runners, two pools) on one database, every event delivered
//     3 times across them: events applied per second, and duplicate captures in the ledger (must be
//     0). Goal ≥ 500/s.
//  c. A booking's balance read (`bookingAccountsOf`) at `--txns` ledger transactions. Goal p95 ≤ 5 ms.
//  d. The reconciliation report over the same ledger. Goal ≤ 60 s.
// Controls (not judged; decision 062): a and b again against instances that only check the
// signature and answer, then also store each delivery in the inbox (bench/money-floor-instance.ts):
// what this machine allows a receiver before any money moves.

import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pino from "pino";
import { createBookingRequest } from "~/features/bookings/booking-requests.server";
import { acceptBooking } from "~/features/bookings/bookings.server";
import { bookingAccountsOf } from "~/features/payments/ledger.server";
import { formatReport, reconciliationReport } from "~/features/payments/reconcile.server";
import { signRazorpayWebhook } from "~/features/payments/webhook-signature";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import { type DatabaseHandle, openDatabase, queryRows } from "~db/client";
import { artistActor, createArtist, createUser } from "~seed/factories";
import { composeApp } from "../server/composition";
import { createBenchDatabase } from "./bench-setup";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`--${name} takes a count`);
  return value;
};
// The goals are at 1,000,000 transactions (`--txns 1000000`, about 8 minutes of loading on a busy
// 2-core machine); the default keeps a run to a few minutes.
const TXNS = option("txns", 200_000);
const EVENTS = option("events", 200);
const BURST = option("burst", 500);
const IN_FLIGHT = 10;
const AMOUNT = 100_000; // ₹1,000.00 per payment: share 88,100 + commission 10,000 + GST 1,800 + TDS 100

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(serverUrl).hostname))
  throw new Error("BENCH_DATABASE_URL must be on this machine (127.0.0.1)");

const results: { figure: string; value: string; goal: string; pass: boolean }[] = [];
const ms = (v: number) => `${v.toFixed(1)} ms`;
function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const sleep = (wait: number) => new Promise((resolve) => setTimeout(resolve, wait));

type Setup = Awaited<ReturnType<typeof startSetup>>;
type Instance = Awaited<ReturnType<typeof spawnInstance>>;

/**
 * The bench's own composition (no server, no job runner) on the scratch database: what makes the
 * bookings and payment requests, and signs the webhooks with the instances' secret.
 */
async function startSetup(url: string, dataDir: string) {
  const env = loadEnv({
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    APP_URL: "http://127.0.0.1:1",
    PAYMENTS: "local",
    LOG_LEVEL: "error",
  });
  const database = openDatabase({ driver: "postgres", url, poolSize: 4 });
  const composed = await composeApp({
    env,
    logger: pino({ level: "error" }),
    database,
    getBuild: () => Promise.reject(new Error("this bench serves no pages")),
  });
  return {
    env,
    database,
    composed,
    secret: env.payments.mode === "off" ? "" : env.payments.webhookSecret,
    async stop() {
      await composed.realtime.close();
      await database.close();
    },
  };
}

/**
 * One instance as production runs it, in its own process (bench/money-instance.ts), or, with
 * `floor`, the control that only answers or only stores (bench/money-floor-instance.ts).
 */
async function spawnInstance(
  url: string,
  dataDir: string,
  port: number,
  floor?: "answer" | "store",
) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // To profile an instance: BENCH_INSTANCE_NODE_ARGS="--cpu-prof --cpu-prof-dir=…".
      ...(process.env.BENCH_INSTANCE_NODE_ARGS?.split(" ").filter(Boolean) ?? []),
      "--import",
      "tsx",
      floor ? "bench/money-floor-instance.ts" : "bench/money-instance.ts",
    ],
    {
      env: {
        PATH: process.env.PATH ?? "",
        BENCH_FLOOR: floor ?? "",
        BENCH_INSTANCE_DATABASE_URL: url,
        BENCH_INSTANCE_DATA_DIR: dataDir,
        BENCH_INSTANCE_PORT: String(port),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stderr?.on("data", (d) => {
    out += d;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      out += d;
      if (String(d).includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`instance exited (${code}):\n${out}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

async function freePort() {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * `count` bookings awaiting their deposit, each with a pending payment intent: one booking made
 * and agreed through the product, then copied in SQL with other dates (the copies keep its
 * agreement's terms), which is much faster than agreeing each.
 */
/** Bookings per artist: payments come for many artists at once, as in production. */
const BOOKINGS_PER_ARTIST = 2;

/**
 * `count` pending payment intents spread over artists, `BOOKINGS_PER_ARTIST` each: confirming a
 * booking locks its artist's row (the busy-days trigger), so one artist for every event would
 * measure that one lock, not the money path.
 */
async function intentsFor(instance: Setup, count: number, tag: string) {
  const intents: { intentId: string; paymentId: string }[] = [];
  for (let made = 0, k = 0; made < count; made += BOOKINGS_PER_ARTIST, k++)
    intents.push(
      ...(await intentsForOneArtist(
        instance,
        Math.min(BOOKINGS_PER_ARTIST, count - made),
        `${tag}${k}x`,
      )),
    );
  return intents;
}

async function intentsForOneArtist(instance: Setup, count: number, tag: string) {
  const db = instance.database.db;
  const ctx = {
    db,
    env: instance.env,
    logger: pino({ level: "error" }),
    mailer: instance.composed.mailer,
    clock: instance.composed.clock,
  };
  const artist = await createArtist({ db });
  const client = await createUser(db);
  const template = await createBookingRequest(
    ctx,
    { id: client.id, roles: [], artistProfileId: null },
    {
      artistId: artist.artistId,
      eventDate: addDays(todayIn(instance.env.timeZone), 60),
      startTime: "19:00",
      durationHours: 2,
      venue: "Bench Hall",
      eventType: "Wedding",
      message: null,
    },
  );
  await acceptBooking(ctx, artistActor(artist), template.id);
  await db.execute(sql`
    INSERT INTO bookings
    SELECT (jsonb_populate_record(NULL::bookings, to_jsonb(b) || jsonb_build_object(
      'id', gen_random_uuid(), 'event_date', b.event_date + g, 'status', 'awaiting_deposit',
      'confirmed_at', NULL))).*
    FROM bookings b, generate_series(1, ${count}) g WHERE b.id = ${template.id}`);
  // Each copy gets its own offer and agreement (both unique per booking), with the same terms.
  await db.execute(sql`
    WITH copies AS (
      SELECT nb.id AS booking_id, gen_random_uuid() AS offer_id, gen_random_uuid() AS agreement_id
      FROM bookings nb WHERE nb.artist_profile_id = ${artist.artistId} AND nb.id <> ${template.id}
    ), agreed AS (
      SELECT * FROM agreements WHERE booking_id = ${template.id} AND status = 'in_force'
    ), offers_made AS (
      INSERT INTO offers
      SELECT (jsonb_populate_record(NULL::offers, to_jsonb(o) || jsonb_build_object(
        'id', c.offer_id, 'booking_id', c.booking_id))).*
      FROM offers o JOIN agreed a ON o.id = a.offer_id, copies c
      RETURNING id
    )
    INSERT INTO agreements
    SELECT (jsonb_populate_record(NULL::agreements, to_jsonb(a) || jsonb_build_object(
      'id', c.agreement_id, 'booking_id', c.booking_id, 'offer_id', c.offer_id,
      'sha256', encode(sha256(convert_to(c.agreement_id::text, 'UTF8')), 'hex')))).*
    FROM agreed a, copies c WHERE (SELECT count(*) FROM offers_made) > 0`);
  return queryRows<{ intentId: string; paymentId: string }>(
    db,
    sql`INSERT INTO payment_intents (booking_id, agreement_id, purpose, amount_paise,
          artist_share_paise, commission_paise, gst_paise, tds_paise, provider, provider_link_id,
          status, due_at, expires_at)
        SELECT b.id, a.id, 'deposit', ${AMOUNT}, 88100, 10000, 1800, 100, 'razorpay',
          'plink_' || ${tag} || row_number() OVER (), 'pending', now(), now() + interval '2 days'
        FROM bookings b JOIN agreements a ON a.booking_id = b.id AND a.status = 'in_force'
        WHERE b.artist_profile_id = ${artist.artistId} AND b.id <> ${template.id}
        RETURNING id AS "intentId", 'pay_' || ${tag} || replace(id::text, '-', '') AS "paymentId"`,
  );
}

function paidEvent(intent: { intentId: string; paymentId: string }) {
  const body = JSON.stringify({
    entity: "event",
    event: "payment_link.paid",
    created_at: Math.floor(Date.now() / 1000),
    payload: {
      payment_link: {
        entity: { id: `plink_${intent.intentId.slice(0, 8)}`, reference_id: intent.intentId },
      },
      payment: {
        entity: { id: intent.paymentId.slice(0, 40), amount: AMOUNT, status: "captured" },
      },
    },
  });
  return {
    body,
    eventId: `evt_${intent.paymentId.slice(4, 40)}`,
    key: `capture:${intent.paymentId.slice(0, 40)}`,
  };
}

async function post(setup: Setup, instance: Instance, event: ReturnType<typeof paidEvent>) {
  const res = await fetch(`${instance.origin}/webhooks/razorpay`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-razorpay-event-id": event.eventId,
      "x-razorpay-signature": signRazorpayWebhook(Buffer.from(event.body), setup.secret),
    },
    body: event.body,
  });
  await res.text();
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
}

/** Watches for ledger keys: one query for all that are awaited, every 5 ms (the resolution). */
function ledgerWatcher(db: DatabaseHandle["db"]) {
  const waiting = new Map<string, (at: number) => void>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      if (waiting.size > 0) {
        const keys = [...waiting.keys()];
        const found = await queryRows<{ key: string }>(
          db,
          sql`SELECT idempotency_key AS key FROM ledger_txns
              WHERE idempotency_key = ANY(${`{${keys.join(",")}}`}::text[])`,
        );
        const at = performance.now();
        for (const { key } of found) {
          waiting.get(key)?.(at);
          waiting.delete(key);
        }
      }
      await sleep(5);
    }
  })();
  return {
    seen: (key: string) => new Promise<number>((resolve) => waiting.set(key, resolve)),
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** The same items in a random order: payments in flight at once are for different artists. */
function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

async function webhookLatency(setup: Setup, instance: Instance) {
  const intents = shuffled(await intentsFor(setup, EVENTS, "a"));
  const watcher = ledgerWatcher(setup.database.db);
  const latencies: number[] = [];
  const answered: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < intents.length) {
        const intent = intents[next++];
        if (!intent) break;
        const event = paidEvent(intent);
        const start = performance.now();
        const seen = watcher.seen(event.key);
        await post(setup, instance, event);
        answered.push(performance.now() - start);
        latencies.push((await seen) - start);
      }
    }),
  );
  await watcher.stop();
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  results.push({
    figure: `a. webhook → ledger, ${IN_FLIGHT} in flight, ${latencies.length} events (the POST answered: p50 ${ms(percentile(answered, 50))}): p50 ${ms(p50)}, p95`,
    value: ms(p95),
    goal: "p95 ≤ 50 ms",
    pass: p95 <= 50,
  });
}

type Delivery = { event: ReturnType<typeof paidEvent>; to: Instance };

/** Every delivery POSTed, 20 in flight. */
async function deliverAll(setup: Setup, deliveries: Delivery[]) {
  let next = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < deliveries.length) {
        const delivery = deliveries[next++];
        if (delivery) await post(setup, delivery.to, delivery.event);
      }
    }),
  );
}

/** Each event three times, alternately to the two instances, in a random order. */
function threeDeliveries(
  events: ReturnType<typeof paidEvent>[],
  first: Instance,
  second: Instance,
): Delivery[] {
  return shuffled(
    events.flatMap((event) =>
      [0, 1, 2].map((copy) => ({ event, to: copy % 2 === 0 ? first : second })),
    ),
  );
}

/**
 * The controls (not judged): the same two measurements against instances that do only the least
 * a receiver must (bench/money-floor-instance.ts): check the signature and answer, then also
 * store the delivery. What this machine allows before any money moves.
 */
async function controls(setup: Setup, url: string, dataDir: string) {
  for (const floor of ["answer", "store"] as const) {
    const pair = [
      await spawnInstance(url, dataDir, await freePort(), floor),
      await spawnInstance(url, dataDir, await freePort(), floor),
    ] as const;
    try {
      const fake = (n: number, tag: string) =>
        paidEvent({ intentId: randomUUID(), paymentId: `pay_c${floor}${tag}${n}` });
      const answered: number[] = [];
      const single = Array.from({ length: EVENTS }, (_, n) => fake(n, "a"));
      let next = 0;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next < single.length) {
            const event = single[next++];
            if (!event) break;
            const start = performance.now();
            await post(setup, pair[0], event);
            answered.push(performance.now() - start);
          }
        }),
      );
      results.push({
        figure: `control a (${floor} only): ${IN_FLIGHT} in flight, ${EVENTS} webhooks answered: p50 ${ms(percentile(answered, 50))}, p95`,
        value: ms(percentile(answered, 95)),
        goal: "(control)",
        pass: true,
      });
      const events = Array.from({ length: BURST }, (_, n) => fake(n, "b"));
      const start = performance.now();
      await deliverAll(setup, threeDeliveries(events, pair[0], pair[1]));
      const seconds = (performance.now() - start) / 1000;
      results.push({
        figure: `control b (${floor} only): two instances, ${BURST} events × 3 deliveries in ${seconds.toFixed(1)} s (${((BURST * 3) / seconds).toFixed(0)} deliveries/s): events/s`,
        value: (BURST / seconds).toFixed(0),
        goal: "(control)",
        pass: true,
      });
    } finally {
      for (const instance of pair) await instance.stop();
    }
  }
}

async function twoInstances(setup: Setup, first: Instance, second: Instance) {
  const intents = await intentsFor(setup, BURST, "b");
  // Each event's copies apart from each other, as a provider's retries come.
  const deliveries = threeDeliveries(intents.map(paidEvent), first, second);
  const start = performance.now();
  await deliverAll(setup, deliveries);
  const posted = performance.now() - start;
  const keys = `{${intents.map((i) => paidEvent(i).key).join(",")}}`;
  let applied = 0;
  while (applied < intents.length) {
    const [row] = await queryRows<{ n: number }>(
      setup.database.db,
      sql`SELECT count(*)::int AS n FROM ledger_txns WHERE idempotency_key = ANY(${keys}::text[])`,
    );
    applied = row?.n ?? 0;
    if (performance.now() - start > 600_000) throw new Error("events not applied in 10 minutes");
    if (applied < intents.length) await sleep(5);
  }
  const seconds = (performance.now() - start) / 1000;
  const [dupes] = await queryRows<{ captures: number; events: number; payments: number }>(
    setup.database.db,
    sql`SELECT
          (SELECT count(*)::int FROM ledger_txns t JOIN payment_intents i
            ON t.idempotency_key = 'capture:' || i.provider_payment_id
            WHERE i.provider_link_id LIKE 'plink_b%') AS captures,
          (SELECT count(*)::int FROM provider_events WHERE event_id LIKE 'evt_b%') AS events,
          (SELECT count(DISTINCT provider_payment_id)::int FROM payment_intents
            WHERE provider_link_id LIKE 'plink_b%') AS payments`,
  );
  const duplicates = (dupes?.captures ?? 0) - (dupes?.payments ?? 0);
  const rate = intents.length / seconds;
  results.push({
    figure: `b. two instances, ${intents.length} events × 3 deliveries (posted in ${(posted / 1000).toFixed(1)} s; ${dupes?.events} stored, ${duplicates} duplicate captures): events/s`,
    value: rate.toFixed(0),
    goal: "≥ 500/s, 0 duplicates",
    pass: rate >= 500 && duplicates === 0 && dupes?.events === intents.length,
  });
}

/**
 * `txns` synthetic transactions, five per booking (capture, split, transfer, release, settle)
 * leaving each booking at 0, spread over the last ten days. Loaded directly with the ledger's
 * triggers switched off for the session (superuser), then every balance set from its legs in one
 * statement: `ledger_post()` per row would take too long here. The books are checked afterwards.
 */
async function bulkLedger(db: DatabaseHandle["db"], txns: number) {
  const bookings = Math.ceil(txns / 5);
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    await tx.execute(sql`CREATE TEMP TABLE bench_b ON COMMIT DROP AS
      SELECT g, gen_random_uuid() AS id, '00000000-0000-4000-8000-' || lpad(to_hex(g % 1000), 12, '0') AS artist,
        now() - ((g % 10) || ' days')::interval - ((g % 86400) || ' seconds')::interval AS at
      FROM generate_series(1, ${bookings}) g`);
    await tx.execute(sql`INSERT INTO ledger_accounts (id, kind, artist_profile_id)
      SELECT DISTINCT 'artist:' || artist || ':released', 'liability', artist::uuid FROM bench_b
      ON CONFLICT DO NOTHING`);
    await tx.execute(sql`INSERT INTO ledger_accounts (id, kind, booking_id)
      SELECT 'booking:' || b.id || ':' || part, 'liability', b.id FROM bench_b b,
        unnest(ARRAY['held', 'artist_hold', 'fee_unearned', 'tds_hold', 'refund_pending']) part`);
    await tx.execute(sql`CREATE TEMP TABLE bench_t ON COMMIT DROP AS
      SELECT b.*, k.kind, k.n, gen_random_uuid() AS txn FROM bench_b b,
        (VALUES ('capture', 1), ('split', 2), ('transfer', 3), ('release', 4), ('settle', 5)) k(kind, n)
      WHERE (b.g - 1) * 5 + k.n <= ${txns}`);
    await tx.execute(sql`INSERT INTO ledger_txns (id, idempotency_key, kind, booking_id, effective_at, source, legs_digest)
      SELECT txn, kind || ':bench_' || g, kind, id, at + (n || ' minutes')::interval, 'job:bench',
        md5(txn::text) || md5(g::text) FROM bench_t`);
    await tx.execute(sql`INSERT INTO ledger_legs (txn_id, from_account, to_account, amount)
      SELECT t.txn, l.from_account, l.to_account, l.amount FROM bench_t t
      CROSS JOIN LATERAL (VALUES
        ('capture', 'world:razorpay', 'booking:' || t.id || ':held', 100000),
        ('split', 'booking:' || t.id || ':held', 'booking:' || t.id || ':fee_unearned', 11800),
        ('split', 'booking:' || t.id || ':held', 'booking:' || t.id || ':tds_hold', 100),
        ('transfer', 'booking:' || t.id || ':held', 'booking:' || t.id || ':artist_hold', 88100),
        ('release', 'booking:' || t.id || ':artist_hold', 'artist:' || t.artist || ':released', 88100),
        ('release', 'booking:' || t.id || ':fee_unearned', 'platform:commission', 10000),
        ('release', 'booking:' || t.id || ':fee_unearned', 'platform:gst_output', 1800),
        ('release', 'booking:' || t.id || ':tds_hold', 'platform:tds_payable', 100),
        ('settle', 'artist:' || t.artist || ':released', 'world:razorpay', 88100)
      ) l(kind, from_account, to_account, amount) WHERE l.kind = t.kind`);
    await tx.execute(sql`UPDATE ledger_accounts a SET balance = m.balance, version = m.legs
      FROM (SELECT account, sum(amount) AS balance, count(*) AS legs FROM (
          SELECT to_account AS account, amount FROM ledger_legs
          UNION ALL SELECT from_account, -amount FROM ledger_legs) x GROUP BY account) m
      WHERE a.id = m.account AND (a.balance, a.version) IS DISTINCT FROM (m.balance, m.legs)`);
  });
  await db.execute(sql`ANALYZE ledger_accounts`);
  await db.execute(sql`ANALYZE ledger_txns`);
  await db.execute(sql`ANALYZE ledger_legs`);
  const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ledger_txns`);
  return row?.n ?? 0;
}

async function balanceReads(db: DatabaseHandle["db"]) {
  const sample = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM (SELECT DISTINCT booking_id AS id FROM ledger_accounts
          WHERE booking_id IS NOT NULL) b ORDER BY random() LIMIT 1000`,
  );
  const times: number[] = [];
  for (const { id } of sample) {
    const start = performance.now();
    const accounts = await bookingAccountsOf(db, id);
    times.push(performance.now() - start);
    if (accounts.length !== 5) throw new Error(`booking ${id} has ${accounts.length} accounts`);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95), reads: times.length };
}

const created = await createBenchDatabase(serverUrl, "gigledger_bench_money");
const dataDirs = [
  mkdtempSync(path.join(tmpdir(), "gl-bench-money-")),
  mkdtempSync(path.join(tmpdir(), "gl-bench-money-")),
];
const instances: Instance[] = [];
let setup: Setup | undefined;
try {
  const migrator = openDatabase({ driver: "postgres", url: created.url });
  await migrator.migrate();
  await migrator.close();
  setup = await startSetup(created.url, dataDirs[0] as string);
  for (const dir of dataDirs)
    instances.push(await spawnInstance(created.url, dir, await freePort()));
  const [first, second] = instances as [Instance, Instance];
  console.log(`PostgreSQL scratch database ${new URL(created.url).pathname.slice(1)}`);

  console.log(`a. ${EVENTS} webhooks, ${IN_FLIGHT} in flight…`);
  await webhookLatency(setup, first);
  console.log(`b. ${BURST} events × 3 deliveries over two instances…`);
  await twoInstances(setup, first, second);
  console.log("controls: the same against instances that only answer, then only store…");
  await controls(setup, created.url, dataDirs[1] as string);

  const db = setup.database.db;
  console.log(`c/d. loading ${TXNS.toLocaleString("en-IN")} ledger transactions…`);
  let start = performance.now();
  const total = await bulkLedger(db, TXNS);
  console.log(
    `   loaded in ${((performance.now() - start) / 1000).toFixed(1)} s; ${total.toLocaleString("en-IN")} transactions in the ledger`,
  );
  const reads = await balanceReads(db);
  results.push({
    figure: `c. a booking's balance read at ${total.toLocaleString("en-IN")} txns (${reads.reads} reads): p50 ${ms(reads.p50)}, p95`,
    value: ms(reads.p95),
    goal: "p95 ≤ 5 ms",
    pass: reads.p95 <= 5,
  });
  start = performance.now();
  // No provider: the bench's payments exist nowhere but here (a provider would miss them all).
  const report = await reconciliationReport(db, null, { timeZone: setup.env.timeZone });
  const seconds = (performance.now() - start) / 1000;
  console.log(
    formatReport(report)
      .split("\n")
      .filter((l) => /Sum of all|Unexplained/.test(l))
      .join("\n"),
  );
  results.push({
    figure: `d. reconciliation report over ${total.toLocaleString("en-IN")} txns (integrity ${report.integrity.ok ? "ok" : "BROKEN"})`,
    value: `${seconds.toFixed(1)} s`,
    goal: "≤ 60 s",
    pass: seconds <= 60 && report.integrity.ok,
  });
} finally {
  for (const instance of instances) await instance.stop().catch(() => {});
  await setup?.stop().catch(() => {});
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await created.drop();
}

console.log("\n| figure | measured | goal | |\n|---|---|---|---|");
for (const r of results)
  console.log(`| ${r.figure} | ${r.value} | ${r.goal} | ${r.pass ? "PASS" : "MISS"} |`);
