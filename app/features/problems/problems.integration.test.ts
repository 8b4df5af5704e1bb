import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingAccountsOf, ledgerIntegrity } from "~/features/payments/ledger.server";
import { paymentProviderOf } from "~/features/payments/provider.server";
import type { SignedInActor } from "~/lib/actor";
import { isLocalClock, type LocalClock } from "~/lib/clock.server";
import { runQueuesNow } from "~/lib/jobs.server";
import { isProblem } from "~/lib/problem";
import { queryRows } from "~db/client";
import { artistActor, createUser } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import {
  accept,
  bookingWithPayouts,
  checkout,
  clientActor,
  type MoneyBooking,
  type MoneyCtx,
  payAt,
  paymentIdsOf,
  pspStateAt,
  statusOf,
} from "../../../tests/support/money/booking-money";
import { createTestDatabase } from "../../../tests/support/test-database";
import { addOperator, operatorLogOf, removeOperator } from "./operators.server";
import { answerProblem, decideProblem, problemsOf, reportProblem } from "./problems.server";

// Problem reports and decisions (issue 42, docs/product.md "Problems"): the reporting window at
// its edges by the app's clock, one report per party, one answer, the payout held until a
// decision, and each decision moved through the provider and balanced in the ledger.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let ctx: MoneyCtx;
let clock: LocalClock;
let operator: { id: string; email: string };

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database, {}, { listen: true });
  if (!isLocalClock(app.clock)) throw new Error("the test app's clock is local");
  clock = app.clock;
  ctx = {
    db: database.db,
    env: app.env,
    logger: pino({ level: "silent" }),
    mailer: app.mailer,
    clock: app.clock,
  };
  const user = await createUser(database.db);
  await addOperator(database.db, "cli", user.email, new Date());
  operator = { id: user.id, email: user.email };
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const provider = () => {
  const made = paymentProviderOf(app.env);
  if (!made) throw new Error("payments are off");
  return made;
};

const QUEUES = ["dev-psp-webhook", "payments.events", "payments.commands"];
async function drain() {
  for (let round = 0; round < 6; round++) {
    const ran = await runQueuesNow(database.db, app.jobHandlers, QUEUES, { clock });
    const errors = ran.flatMap((r) => r.errors);
    if (errors.length > 0) throw new Error(`jobs failed: ${JSON.stringify(errors)}`);
    if (ran.every((r) => r.batches === 0)) return;
  }
}

/** The payout job run at `at` (the app's clock moved there), then the commands it adds. */
async function releaseJobAt(at: Date) {
  clock.set(at);
  await runQueuesNow(database.db, app.jobHandlers, ["payments.release"], { clock });
  await drain();
}

/** A booking paid in full (deposit 100 %), confirmed, with its release time. */
async function paidBooking(daysAhead: number) {
  const booking = await bookingWithPayouts(ctx, provider(), {
    daysAhead,
    terms: { depositBps: 10_000 },
  });
  await accept(ctx, booking);
  await payAt(await checkout(ctx, provider(), booking));
  await drain();
  expect(await statusOf(database.db, booking.bookingId)).toBe("confirmed");
  const [row] = await queryRows<{ releaseAt: Date | string; paid: number }>(
    database.db,
    sql`SELECT b.release_at AS "releaseAt",
          (SELECT sum(amount_paise)::int FROM payment_intents i WHERE i.booking_id = b.id
            AND i.status = 'captured') AS paid
        FROM bookings b WHERE b.id = ${booking.bookingId}`,
  );
  return { ...booking, releaseAt: new Date(row?.releaseAt ?? 0), paidPaise: row?.paid ?? 0 };
}

const client = (b: MoneyBooking): SignedInActor => clientActor(b.client);
const artist = (b: MoneyBooking): SignedInActor => artistActor(b.artist);

async function refusal(run: Promise<unknown>) {
  try {
    await run;
  } catch (error) {
    if (isProblem(error)) return error.code;
    throw error;
  }
  return "done";
}

async function releasedAt(bookingId: string) {
  const [row] = await queryRows<{ at: Date | null }>(
    database.db,
    sql`SELECT payout_released_at AS at FROM bookings WHERE id = ${bookingId}`,
  );
  return row?.at ?? null;
}

async function refundedAtProvider(bookingId: string) {
  const payments = await paymentIdsOf(database.db, bookingId);
  const state = await pspStateAt(app.request);
  return state.refunds
    .filter((r) => payments.includes(r.payment_id))
    .reduce((sum, r) => sum + r.amount, 0);
}

const MINUTE = 60_000;
const report = (category: "artist_no_show" | "not_as_agreed" | "other") => ({
  category,
  statement: "Nobody came; the venue waited two hours.",
});

describe("reporting a problem", () => {
  it("opens at the confirmation and closes at the payout's release time, by the app's clock", async () => {
    clock.reset();
    const booking = await paidBooking(40);
    // A minute before the release time the client may report; a minute after, the artist may not.
    clock.set(new Date(booking.releaseAt.getTime() - MINUTE));
    expect(
      await refusal(reportProblem(ctx, client(booking), booking.bookingId, report("other"))),
    ).toBe("done");
    clock.set(new Date(booking.releaseAt.getTime() + MINUTE));
    expect(
      await refusal(reportProblem(ctx, artist(booking), booking.bookingId, report("other"))),
    ).toBe("conflict");
    clock.reset();
  });

  it("takes one report per party, answers once from the other party, and none from strangers", async () => {
    clock.reset();
    const booking = await paidBooking(41);
    const stranger = clientActor(await createUser(database.db));
    expect(await refusal(reportProblem(ctx, stranger, booking.bookingId, report("other")))).toBe(
      "not_found",
    );
    const made = await reportProblem(
      ctx,
      client(booking),
      booking.bookingId,
      report("not_as_agreed"),
    );
    expect(
      await refusal(reportProblem(ctx, client(booking), booking.bookingId, report("other"))),
    ).toBe("conflict");
    expect(await refusal(answerProblem(ctx, client(booking), made.id, { answer: "Me too" }))).toBe(
      "forbidden",
    );
    expect(await refusal(answerProblem(ctx, stranger, made.id, { answer: "Hi" }))).toBe(
      "not_found",
    );
    await answerProblem(ctx, artist(booking), made.id, { answer: "I played the full set." });
    expect(await refusal(answerProblem(ctx, artist(booking), made.id, { answer: "Again" }))).toBe(
      "conflict",
    );
    // The artist may report too: one per party.
    expect(
      await refusal(reportProblem(ctx, artist(booking), booking.bookingId, report("other"))),
    ).toBe("done");
    const reports = await problemsOf(database.db, booking.bookingId);
    expect(reports.map((r) => r.party).sort()).toEqual(["artist", "client"]);
    expect(reports.find((r) => r.party === "client")?.answer).toBe("I played the full set.");
  });
});

describe("decisions", () => {
  it("a confirmed no-show: the payout never releases, the client gets everything back, the books balance", async () => {
    clock.reset();
    const booking = await paidBooking(42);
    const made = await reportProblem(
      ctx,
      client(booking),
      booking.bookingId,
      report("artist_no_show"),
    );
    // The event passes, the release time too: the payout stays on hold.
    await releaseJobAt(new Date(booking.releaseAt.getTime() + 60 * MINUTE));
    expect(await releasedAt(booking.bookingId)).toBeNull();

    await decideProblem(ctx, operator, made.id, {
      decision: "refund_full",
      refundPaise: null,
      reason: "The artist confirmed they did not come.",
    });
    await drain();
    await releaseJobAt(new Date(booking.releaseAt.getTime() + 120 * MINUTE));
    expect(await releasedAt(booking.bookingId)).toBeNull();
    expect(await refundedAtProvider(booking.bookingId)).toBe(booking.paidPaise);
    const [row] = await queryRows<{ status: string; cancelledBy: string }>(
      database.db,
      sql`SELECT status, cancelled_by AS "cancelledBy" FROM bookings WHERE id = ${booking.bookingId}`,
    );
    expect(row).toEqual({ status: "cancelled", cancelledBy: "artist" });
    for (const account of await bookingAccountsOf(database.db, booking.bookingId))
      expect(account.balance, account.id).toBe(0);
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
    // Decided once; logged with who.
    expect(
      await refusal(
        decideProblem(ctx, operator, made.id, {
          decision: "release",
          refundPaise: null,
          reason: "x",
        }),
      ),
    ).toBe("conflict");
    const log = await operatorLogOf(database.db);
    expect(
      log.some((l) => l.action === "problem.refund_full" && l.operatorEmail === operator.email),
    ).toBe(true);
    clock.reset();
  });

  it("a partial refund gives that much back and releases the rest at once", async () => {
    clock.reset();
    const booking = await paidBooking(43);
    const made = await reportProblem(
      ctx,
      client(booking),
      booking.bookingId,
      report("not_as_agreed"),
    );
    expect(
      await refusal(
        decideProblem(ctx, operator, made.id, {
          decision: "refund_partial",
          refundPaise: booking.paidPaise,
          reason: "All of it is not partial.",
        }),
      ),
    ).toBe("invalid");
    const part = Math.floor(booking.paidPaise * 0.3);
    await decideProblem(ctx, operator, made.id, {
      decision: "refund_partial",
      refundPaise: part,
      reason: "They played 40 minutes of 2 hours.",
    });
    await drain();
    expect(await refundedAtProvider(booking.bookingId)).toBe(part);
    expect(await releasedAt(booking.bookingId)).not.toBeNull();
    for (const account of await bookingAccountsOf(database.db, booking.bookingId))
      expect(account.balance, account.id).toBe(0);
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
  });

  it("a release lets the payout go at its time, and not before every report is decided", async () => {
    clock.reset();
    const booking = await paidBooking(44);
    const first = await reportProblem(ctx, client(booking), booking.bookingId, report("other"));
    const second = await reportProblem(ctx, artist(booking), booking.bookingId, report("other"));
    await decideProblem(ctx, operator, first.id, {
      decision: "release",
      refundPaise: null,
      reason: "The set was played as agreed.",
    });
    await releaseJobAt(new Date(booking.releaseAt.getTime() + MINUTE));
    expect(await releasedAt(booking.bookingId)).toBeNull();
    await decideProblem(ctx, operator, second.id, {
      decision: "release",
      refundPaise: null,
      reason: "Nothing to refund.",
    });
    await releaseJobAt(new Date(booking.releaseAt.getTime() + 2 * MINUTE));
    expect(await releasedAt(booking.bookingId)).not.toBeNull();
    expect(await refundedAtProvider(booking.bookingId)).toBe(0);
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
    clock.reset();
  });
});

describe("operators", () => {
  it("are added and removed by e-mail, never by themselves, each change logged", async () => {
    const other = await createUser(database.db);
    await addOperator(database.db, operator, other.email, new Date());
    expect(await refusal(removeOperator(database.db, operator, operator.email, new Date()))).toBe(
      "conflict",
    );
    await removeOperator(database.db, operator, other.email, new Date());
    expect(
      await refusal(addOperator(database.db, operator, "nobody@example.test", new Date())),
    ).toBe("not_found");
    const log = await operatorLogOf(database.db);
    expect(log.slice(0, 2).map((l) => l.action)).toEqual(["operator.remove", "operator.add"]);
    await expect(database.db.execute(sql`DELETE FROM operator_log`)).rejects.toThrow();
  });
});
