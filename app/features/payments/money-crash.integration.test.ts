import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgreementDocument } from "~/features/agreements/agreement-document";
import { eventEndOf } from "~/features/agreements/agreement-times";
import { cancelBooking } from "~/features/bookings/bookings.server";
import { createLocalClock, systemClock } from "~/lib/clock.server";
import { type FaultPointName, loadEnv } from "~/lib/env.server";
import { createMailer } from "~/lib/mail.server";
import { queryRows } from "~db/client";
import { freePort } from "../../../tests/support/free-port";
import {
  type AppProcess,
  startAppProcess,
  stopAppProcess,
} from "../../../tests/support/money/app-processes";
import {
  accept,
  bookingWithPayouts,
  checkout,
  clientActor,
  countOf,
  ledgerKinds,
  type MoneyBooking,
  type MoneyCtx,
  payAt,
  paymentIdsOf,
  pspStateAt,
  statusOf,
} from "../../../tests/support/money/booking-money";
import { createTestDatabase, usingServer } from "../../../tests/support/test-database";
import { bookingAccountsOf, ledgerIntegrity } from "./ledger.server";
import { paymentProviderOf } from "./provider.server";

// The server killed (SIGKILL) between the provider's success and our write, at each named fault
// point (design money-and-terms §3.9, §8.5), then restarted on the same database and data folder:
// exactly one capture, transfer, refund, reversal and release after, and the books balanced.
// The app runs as its own process (tests/support/money/app-process.ts: the production
// composition and job runner, without the pages' build); this process drives it over HTTP and
// acts as the people do (accept, pay at the hosted page, cancel) on the same database. Another
// process shares the database only on a PostgreSQL server: these tests run only there.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let running: AppProcess | undefined;
const dataDirs: string[] = [];

/** One app (its data folder and port, kept across restarts) and the context this test acts in. */
async function crashableApp() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "gl-crash-"));
  dataDirs.push(dataDir);
  const port = await freePort();
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    BETTER_AUTH_SECRET: "test-secret-".padEnd(40, "x"),
    PAYMENTS: "local",
  });
  const logger = pino({ level: "silent" });
  const ctx: MoneyCtx = {
    db: database.db,
    env,
    logger,
    mailer: createMailer(env, logger),
    clock: systemClock,
  };
  const provider = paymentProviderOf(env);
  if (!provider) throw new Error("payments are off");
  return {
    ctx,
    provider,
    dataDir,
    /** Starts the app (stopping the one running), with the fault points given. */
    async start(faults: FaultPointName[] = []) {
      await stopAppProcess(running);
      running = await startAppProcess({
        databaseUrl: database.url as string,
        dataDir,
        port,
        faults,
      });
      return running;
    },
  };
}

/** Waits for the app to end and says how: a fault point ends it with SIGKILL. */
async function death(app: AppProcess, timeoutMs = 30_000) {
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    app.exited,
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (!ended) throw new Error(`the app did not die within ${timeoutMs} ms:\n${app.output()}`);
  return ended.signal;
}

/**
 * The dead process's jobs keep their lease (60 s for events, 120 s for commands, of real time)
 * before another instance takes them as abandoned: the test ends the leases instead of waiting.
 */
async function endLeases() {
  await database.db.execute(
    sql`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE locked_until > now()`,
  );
}

/** Runs the money queues on the app until none has work left (the runner may be at them too). */
async function drain(app: AppProcess) {
  for (let round = 0; round < 10; round++) {
    const res = await app.request(
      "/dev/jobs/run?name=dev-psp-webhook,payments.events,payments.commands",
      { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
    );
    const { ran } = (await res.json()) as { ran: { batches: number; errors: string[] }[] };
    const errors = ran.flatMap((r) => r.errors);
    if (errors.length > 0) throw new Error(`jobs failed: ${JSON.stringify(errors)}`);
    if (ran.every((r) => r.batches === 0)) return;
  }
  throw new Error("the money queues did not run dry");
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}:\n${running?.output() ?? ""}`);
}

const count = async (query: ReturnType<typeof sql>) => {
  const [row] = await queryRows<{ n: number }>(database.db, query);
  return row?.n ?? -1;
};

const transfersOf = (bookingId: string) =>
  count(sql`SELECT count(*)::int AS n FROM provider_transfers WHERE booking_id = ${bookingId}`);

/** Whether each payment's transfer is on hold at the provider (read from its tables). */
async function holdsAtProvider(paymentIds: string[]) {
  const rows = await queryRows<{ onHold: boolean }>(
    database.db,
    sql`SELECT on_hold AS "onHold" FROM psp_transfers
        WHERE payment_id IN (${sql.join(
          paymentIds.map((id) => sql`${id}`),
          sql`, `,
        )})
        ORDER BY created_at, id`,
  );
  return rows.map((r) => r.onHold);
}

/** A booking accepted and its first payment made at the hosted page (confirmed when applied). */
async function paidBooking(
  app: Awaited<ReturnType<typeof crashableApp>>,
  options: Parameters<typeof bookingWithPayouts>[2],
): Promise<MoneyBooking> {
  const booking = await bookingWithPayouts(app.ctx, app.provider, options);
  await accept(app.ctx, booking);
  await payAt(await checkout(app.ctx, app.provider, booking));
  return booking;
}

/** What must hold of any booking after the restart, whatever the fault was. */
async function expectOneOfEverything(bookingId: string, payments: number) {
  const kinds = await ledgerKinds(database.db, bookingId);
  expect(countOf(kinds, "capture")).toBe(payments);
  expect(countOf(kinds, "transfer")).toBe(payments);
  const paymentIds = await paymentIdsOf(database.db, bookingId);
  expect(paymentIds).toHaveLength(payments);
  const state = await pspStateAt(running?.request ?? fetch);
  for (const paymentId of paymentIds) {
    expect(state.payments.filter((p) => p.id === paymentId && p.status !== "failed")).toHaveLength(
      1,
    );
    expect(state.transfers.filter((t) => t.source === paymentId)).toHaveLength(1);
  }
  expect(await transfersOf(bookingId)).toBe(payments);
  expect(
    await count(
      sql`SELECT count(*)::int AS n FROM provider_commands WHERE booking_id = ${bookingId}
            AND status <> 'succeeded'`,
    ),
  ).toBe(0);
  expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
  return { kinds, paymentIds, state };
}

describe.runIf(usingServer())("a crash between the provider's success and our write", () => {
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 240_000);
  afterEach(async () => {
    await stopAppProcess(running);
    running = undefined;
  });
  afterAll(async () => {
    await database?.dispose();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("webhook.after-inbox-insert: the stored event is applied after the restart, once", async () => {
    const app = await crashableApp();
    const dying = await app.start(["webhook.after-inbox-insert"]);
    const booking = await paidBooking(app, { daysAhead: 30 });
    expect(await death(dying)).toBe("SIGKILL");
    // The first webhook is in the inbox, committed, and nothing is applied yet.
    expect(
      await count(sql`SELECT count(*)::int AS n FROM provider_events WHERE processed_at IS NULL`),
    ).toBeGreaterThan(0);
    expect(await ledgerKinds(database.db, booking.bookingId)).toEqual([]);
    expect(await statusOf(database.db, booking.bookingId)).toBe("awaiting_deposit");

    await endLeases();
    const restarted = await app.start();
    await waitFor("the transfer", async () => (await transfersOf(booking.bookingId)) === 1);
    await drain(restarted);
    expect(await statusOf(database.db, booking.bookingId)).toBe("confirmed");
    const { state } = await expectOneOfEverything(booking.bookingId, 1);
    // The provider never had its answer and sent the event again: stored once all the same.
    const ids = state.webhooks.map((w) => w.id);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM provider_events
            WHERE event_id IN (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )})`,
      ),
    ).toBe(new Set(ids).size);
  }, 240_000);

  it("events.before-commit: the capture rolled back with the process is applied once after", async () => {
    const app = await crashableApp();
    const dying = await app.start(["events.before-commit"]);
    const booking = await paidBooking(app, { daysAhead: 31 });
    expect(await death(dying)).toBe("SIGKILL");
    expect(await ledgerKinds(database.db, booking.bookingId)).toEqual([]);
    expect(await statusOf(database.db, booking.bookingId)).toBe("awaiting_deposit");
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM provider_events
            WHERE event_type = 'payment_link.paid' AND processed_at IS NULL
              AND raw_body LIKE ${`%${booking.bookingId}%`}`,
      ),
    ).toBe(1);

    await endLeases();
    const restarted = await app.start();
    await waitFor("the transfer", async () => (await transfersOf(booking.bookingId)) === 1);
    await drain(restarted);
    expect(await statusOf(database.db, booking.bookingId)).toBe("confirmed");
    await expectOneOfEverything(booking.bookingId, 1);
  }, 240_000);

  it("commands.after-provider-call at the transfer: the provider's transfer is found again, not made twice", async () => {
    const app = await crashableApp();
    const dying = await app.start(["commands.after-provider-call"]);
    const booking = await paidBooking(app, { daysAhead: 32 });
    expect(await death(dying)).toBe("SIGKILL");
    // The provider made the transfer; our books do not know it yet.
    const [paymentId] = await paymentIdsOf(database.db, booking.bookingId);
    expect(await holdsAtProvider([paymentId as string])).toEqual([true]);
    expect(await transfersOf(booking.bookingId)).toBe(0);
    expect(countOf(await ledgerKinds(database.db, booking.bookingId), "transfer")).toBe(0);

    await endLeases();
    const restarted = await app.start();
    await waitFor("the transfer", async () => (await transfersOf(booking.bookingId)) === 1);
    await drain(restarted);
    await expectOneOfEverything(booking.bookingId, 1);
  }, 240_000);

  it("commands.after-provider-call at a cancellation's refund: one reversal, one refund, then the kept part released", async () => {
    const app = await crashableApp();
    const first = await app.start();
    // The whole total paid at once, cancelled by the client a day after accepting (past the
    // cooling-off) with 19 days' notice: 30 % kept under the moderate policy, 70 % refunded.
    const booking = await paidBooking(app, {
      daysAhead: 20,
      terms: { depositBps: 10_000, cancellationPolicy: "moderate" },
    });
    await waitFor("the transfer", async () => (await transfersOf(booking.bookingId)) === 1);
    const advanced = await first.request("/dev/clock", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance: "PT25H" }),
    });
    expect(advanced.status).toBe(200);

    const dying = await app.start(["commands.after-provider-call"]);
    // This process acts at the app's time: the offset the app keeps in its data folder.
    const ctx = { ...app.ctx, clock: createLocalClock(path.join(app.dataDir, "clock.json")) };
    await cancelBooking(ctx, clientActor(booking.client), booking.bookingId);
    expect(await death(dying)).toBe("SIGKILL");
    const [paymentId] = await paymentIdsOf(database.db, booking.bookingId);
    const [outcome] = await queryRows<{ refund: number; paid: number }>(
      database.db,
      sql`SELECT (cancel_outcome ->> 'refundPaise')::int AS refund,
            (cancel_outcome ->> 'paidPaise')::int AS paid
          FROM bookings WHERE id = ${booking.bookingId}`,
    );
    expect(outcome?.refund).toBe(((outcome?.paid ?? 0) * 7) / 10);
    // The provider refunded; our books have no refund yet.
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM provider_refunds WHERE booking_id = ${booking.bookingId}`,
      ),
    ).toBe(0);

    await endLeases();
    const restarted = await app.start();
    await waitFor("the refund and the release", async () => {
      const kinds = await ledgerKinds(database.db, booking.bookingId);
      return countOf(kinds, "refund") === 1 && countOf(kinds, "release") === 1;
    });
    await drain(restarted);
    const { kinds, state } = await expectOneOfEverything(booking.bookingId, 1);
    const refunds = state.refunds.filter((r) => r.payment_id === paymentId);
    expect(refunds.map((r) => r.amount)).toEqual([outcome?.refund]);
    const transfer = state.transfers.find((t) => t.source === paymentId);
    expect(state.reversals.filter((r) => r.transfer_id === transfer?.id)).toHaveLength(1);
    expect(transfer?.on_hold).toBe(false);
    expect(countOf(kinds, "refund_init")).toBe(1);
    expect(countOf(kinds, "refund")).toBe(1);
    expect(countOf(kinds, "release")).toBe(1);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM provider_refunds WHERE booking_id = ${booking.bookingId}`,
      ),
    ).toBe(1);
    const accounts = await bookingAccountsOf(database.db, booking.bookingId);
    for (const account of accounts) expect(account.balance, account.id).toBe(0);
  }, 240_000);

  it("release.after-provider-call: the transfers released before the crash and after it, the payout posted once", async () => {
    const app = await crashableApp();
    const first = await app.start();
    // The soonest event of this file's bookings: the first payout due when the clock moves.
    const booking = await paidBooking(app, { daysAhead: 10 });
    await waitFor(
      "the deposit's transfer",
      async () => (await transfersOf(booking.bookingId)) === 1,
    );
    await payAt(await checkout(app.ctx, app.provider, booking));
    await waitFor(
      "the balance's transfer",
      async () => (await transfersOf(booking.bookingId)) === 2,
    );
    await drain(first);

    const dying = await app.start(["release.after-provider-call"]);
    const [row] = await queryRows<{ json: string }>(
      database.db,
      sql`SELECT json FROM agreements WHERE booking_id = ${booking.bookingId} AND status = 'in_force'`,
    );
    const agreement = (JSON.parse(String(row?.json)) as { agreement: AgreementDocument }).agreement;
    const releaseAt = new Date(eventEndOf(agreement).getTime() + 48 * 3_600_000);
    const moved = await dying.request("/dev/clock", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ set: new Date(releaseAt.getTime() + 60_000).toISOString() }),
    });
    expect(moved.status).toBe(200);
    await dying
      .request("/dev/jobs/run?name=payments.release", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      })
      .catch(() => {});
    expect(await death(dying)).toBe("SIGKILL");
    // The first transfer was released at the provider; the second not yet; our books neither.
    const paymentIds = await paymentIdsOf(database.db, booking.bookingId);
    expect(await holdsAtProvider(paymentIds)).toEqual([false, true]);
    expect(countOf(await ledgerKinds(database.db, booking.bookingId), "release")).toBe(0);

    await endLeases();
    const restarted = await app.start();
    await waitFor("the release", async () => {
      const kinds = await ledgerKinds(database.db, booking.bookingId);
      return countOf(kinds, "release") === 1;
    });
    await drain(restarted);
    const { kinds, state } = await expectOneOfEverything(booking.bookingId, 2);
    expect(countOf(kinds, "release")).toBe(1);
    expect(
      state.transfers.filter((t) => paymentIds.includes(t.source)).map((t) => t.on_hold),
    ).toEqual([false, false]);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM provider_commands WHERE booking_id = ${booking.bookingId}
              AND kind = 'release_transfer'`,
      ),
    ).toBe(1);
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM commission_invoices WHERE booking_id = ${booking.bookingId}`,
      ),
    ).toBe(1);
    const accounts = await bookingAccountsOf(database.db, booking.bookingId);
    for (const account of accounts) expect(account.balance, account.id).toBe(0);
  }, 240_000);
});
