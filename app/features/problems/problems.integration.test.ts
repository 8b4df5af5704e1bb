import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getBooking } from "~/features/bookings/booking-views.server";
import { rateClient } from "~/features/bookings/client-ratings.server";
import { listSubstitutes } from "~/features/bookings/substitutes.server";
import {
  accountingCsv,
  failedCalls,
  failedEvents,
  keepYesterdaysReconciliation,
  moneyToday,
  reconciliationRunOf,
  reconciliationRuns,
  retryCall,
  retryEvent,
} from "~/features/payments/desk.server";
import { bookingAccountsOf, ledgerIntegrity } from "~/features/payments/ledger.server";
import {
  formatReport,
  reconcileProviderOf,
  reconciliationReport,
} from "~/features/payments/reconcile.server";
import { signRazorpayWebhook } from "~/features/payments/webhook-signature";
import { getClientRecord } from "~/features/trust/trust.server";
import type { SignedInActor } from "~/lib/actor";
import type { LocalClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { runQueuesNow } from "~/lib/jobs.server";
import { isProblem } from "~/lib/problem";
import { queryRows } from "~db/client";
import { artistActor, createUser } from "~seed/factories";
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
import { type MoneyApp, startMoneyApp } from "../../../tests/support/money/money-app";
import { signedInUser } from "../../../tests/support/sessions";
import { addOperator, operatorLogOf, removeOperator } from "./operators.server";
import { answerProblem, decideProblem, problemsOf, reportProblem } from "./problems.server";

// Problem reports and decisions (issue 42, docs/product.md "Problems"): the reporting window at
// its edges by the app's clock, one report per party, one answer, the payout held until a
// decision, and each decision moved through the provider and balanced in the ledger.

let money: MoneyApp;
let database: MoneyApp["database"];
let app: MoneyApp["app"];
let ctx: MoneyCtx;
let clock: LocalClock;
let operator: { id: string; email: string };

beforeAll(async () => {
  money = await startMoneyApp();
  ({ database, app, ctx, clock } = money);
  const user = await createUser(database.db);
  await addOperator(database.db, "cli", user.email, new Date());
  operator = { id: user.id, email: user.email };
}, 120_000);
afterAll(() => money?.close());

const provider = () => money.provider();
const drain = () => money.drain();

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
    // The artist heard of the report, the client of the answer, each once.
    await runQueuesNow(database.db, app.jobHandlers, ["payments.mail"], { clock });
    const mails = await app.mailer.outbox();
    const toArtist = mails.filter((m) => m.to === booking.artist.user.email);
    const toClient = mails.filter((m) => m.to === booking.client.email);
    expect(
      toArtist.filter((m) => m.subject.startsWith("A problem was reported on your booking")),
    ).toHaveLength(1);
    expect(toArtist.find((m) => m.subject.startsWith("A problem was reported"))?.text).toContain(
      "The performance was much shorter or different from the agreement",
    );
    expect(toClient.filter((m) => m.subject.startsWith("Your problem report for"))).toHaveLength(1);
    expect(toClient.filter((m) => m.subject.startsWith("A problem was reported"))).toHaveLength(0);
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
    // The client is offered who is free that day at once; the artist is not.
    const view = await getBooking(ctx, client(booking), booking.bookingId);
    if (!view) throw new Error("booking gone");
    expect(view.noShowReported).toBe(true);
    expect(await listSubstitutes(ctx, client(booking), view)).not.toBeNull();
    expect(await listSubstitutes(ctx, artist(booking), view)).toBeNull();
    // The event passes, the release time too: the payout stays on hold.
    await releaseJobAt(new Date(booking.releaseAt.getTime() + 60 * MINUTE));
    expect(await releasedAt(booking.bookingId)).toBeNull();

    // A confirmed no-show is always a full refund.
    expect(
      await refusal(
        decideProblem(ctx, operator, made.id, {
          decision: "refund_partial",
          refundPaise: 100,
          reason: "Half of it.",
        }),
      ),
    ).toBe("invalid");
    await decideProblem(ctx, operator, made.id, {
      decision: "refund_full",
      refundPaise: null,
      reason: "The artist confirmed they did not come.",
    });
    await drain();
    await runQueuesNow(database.db, app.jobHandlers, ["payments.mail"], { clock });
    for (const to of [booking.client.email, booking.artist.user.email]) {
      const decided = (await app.mailer.outbox()).filter(
        (m) => m.to === to && m.subject.startsWith("GigLedger decided the problem report"),
      );
      expect(decided, to).toHaveLength(1);
      expect(decided[0]?.text).toContain("The reason: The artist confirmed they did not come.");
    }
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

describe("the desk's money", () => {
  it("counts today's money, lists and retries failed calls and events, keeps yesterday's reconciliation, and writes the month's CSV", async () => {
    clock.reset();
    const booking = await paidBooking(45);
    const today = await moneyToday(database.db, clock.now(), app.env.timeZone);
    expect(today.heldPaise).toBeGreaterThan(0);
    expect(today.heldBookings).toBeGreaterThan(0);

    // A call the provider refused: listed, and back to pending with its job on retry, once.
    const [command] = await queryRows<{ id: string }>(
      database.db,
      sql`INSERT INTO provider_commands (kind, booking_id, idempotency_key, request, status,
            attempts, last_error)
          VALUES ('refund', ${booking.bookingId}, ${`desk-${booking.bookingId}`},
            '{"paymentId":"pay_none","amountPaise":100,"reason":"desk"}'::jsonb,
            'needs_attention', 1, 'The id provided does not exist')
          RETURNING id`,
    );
    expect((await failedCalls(database.db)).map((c) => c.id)).toContain(command?.id);
    expect(await database.db.transaction((tx) => retryCall(tx, String(command?.id)))).toBe(
      booking.bookingId,
    );
    const [waiting] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM jobs WHERE queue = 'payments.commands'
            AND key = ${booking.bookingId} AND failed_at IS NULL`,
    );
    expect(waiting?.n).toBe(1);
    expect((await failedCalls(database.db)).map((c) => c.id)).not.toContain(command?.id);
    // Not the provider's, the command is marked again when run; leave it out of the books.
    await database.db.execute(
      sql`UPDATE provider_commands SET status = 'succeeded' WHERE id = ${String(command?.id)}`,
    );
    expect(await database.db.transaction((tx) => retryCall(tx, String(command?.id)))).toBeNull();

    // An event for a payment request that does not exist: an orphan, listed, applied again.
    const body = JSON.stringify({
      entity: "event",
      event: "payment_link.paid",
      payload: {
        payment_link: {
          entity: { id: "plink_x", reference_id: "00000000-0000-4000-8000-000000000000" },
        },
        payment: { entity: { id: "pay_orphan_desk", amount: 100, status: "captured" } },
      },
    });
    const secret = app.env.payments.mode === "off" ? "" : app.env.payments.webhookSecret;
    const posted = await app.request("/webhooks/razorpay", {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-razorpay-event-id": "evt_orphan_desk",
        "x-razorpay-signature": signRazorpayWebhook(Buffer.from(body), secret),
      },
    });
    expect(posted.status).toBe(200);
    const orphan = (await failedEvents(database.db)).find((e) => e.eventId === "evt_orphan_desk");
    expect(orphan?.outcome).toBe("orphan");
    expect(await database.db.transaction((tx) => retryEvent(tx, String(orphan?.id)))).toBe(
      "evt_orphan_desk",
    );
    await drain();
    expect(
      (await failedEvents(database.db)).find((e) => e.eventId === "evt_orphan_desk")?.attempts,
    ).toBe(2);

    // The daily job keeps yesterday's report once.
    await keepYesterdaysReconciliation(database.db, app.env, clock.now());
    const yesterday = addDays(todayIn(app.env.timeZone, clock.now()), -1);
    const runs = await reconciliationRuns(database.db);
    expect(runs.map((r) => r.day)).toContain(yesterday);
    expect(await reconciliationRunOf(database.db, yesterday)).toContain("Unexplained difference");

    // The month's CSV: a line per commission invoice issued this month, and the totals.
    const month = todayIn(app.env.timeZone, new Date()).slice(0, 7);
    const csv = await accountingCsv(database.db, month, {
      timeZone: app.env.timeZone,
      invoicePrefix: app.env.invoicePrefix,
    });
    const lines = String(csv).trim().split("\n");
    expect(lines[0]).toBe("invoice,date,booking,artist,commission_inr,gst_inr,tds_inr");
    expect(lines.at(-1)).toMatch(new RegExp(`^total ${month},`));
    expect(
      await accountingCsv(database.db, "2026-13", {
        timeZone: "Asia/Kolkata",
        invoicePrefix: "GL",
      }),
    ).toBeNull();
  });
});

describe("two-way trust", () => {
  it("the artist rates the client of a completed booking once, and other artists see it", async () => {
    clock.reset();
    const booking = await paidBooking(46);
    expect(
      await refusal(
        rateClient(ctx, artist(booking), booking.bookingId, { stars: 5, comment: null }),
      ),
    ).toBe("conflict");
    await database.db.execute(
      sql`UPDATE bookings SET status = 'completed' WHERE id = ${booking.bookingId}`,
    );
    expect(
      await refusal(
        rateClient(ctx, client(booking), booking.bookingId, { stars: 1, comment: null }),
      ),
    ).toBe("not_found");
    await rateClient(ctx, artist(booking), booking.bookingId, {
      stars: 4,
      comment: "Clear brief, paid on time.",
    });
    expect(
      await refusal(
        rateClient(ctx, artist(booking), booking.bookingId, { stars: 1, comment: null }),
      ),
    ).toBe("conflict");
    // Another artist the client asks sees it beside the client's record.
    const next = await bookingWithPayouts(ctx, provider(), { daysAhead: 47 });
    await database.db.execute(
      sql`UPDATE bookings SET client_user_id = ${booking.client.id} WHERE id = ${next.bookingId}`,
    );
    const record = await getClientRecord(ctx, artist(next), { clientUserId: booking.client.id });
    expect(record?.ratings).toEqual({
      count: 1,
      average: 4,
      latest: [{ stars: 4, comment: "Clear brief, paid on time." }],
    });
  });
});

describe("files on a report", () => {
  const PNG = Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
    "hex",
  );
  const post = (bookingId: string, cookie: string, files: [string, Buffer, string][]) => {
    const form = new FormData();
    form.set("intent", "report");
    form.set("category", "not_as_agreed");
    form.set("statement", "Photos of the empty stage attached.");
    for (const [name, bytes, type] of files)
      form.append("files", new Blob([new Uint8Array(bytes)], { type }), name);
    return app.request(`/bookings/${bookingId}/problem`, {
      method: "POST",
      body: form,
      headers: { Origin: app.env.appUrl.origin, Cookie: cookie },
      redirect: "manual",
    });
  };

  it("are checked, hashed, and read only by the parties and operators", async () => {
    clock.reset();
    const booking = await paidBooking(48);
    const person = await signedInUser(app, database.db, "Reporter");
    await database.db.execute(
      sql`UPDATE bookings SET client_user_id = ${person.id} WHERE id = ${booking.bookingId}`,
    );
    const count = async () =>
      (
        await queryRows<{ n: number }>(
          database.db,
          sql`SELECT count(*)::int AS n FROM problem_files`,
        )
      )[0]?.n;
    const before = await count();
    // Not a photo, a sound or a PDF (whatever it claims), or too many: refused, nothing kept.
    expect(
      (await post(booking.bookingId, person.cookie, [["a.png", Buffer.from("hello"), "image/png"]]))
        .status,
    ).toBe(400);
    expect(
      (
        await post(
          booking.bookingId,
          person.cookie,
          [1, 2, 3, 4].map((n) => [`${n}.png`, PNG, "image/png"]),
        )
      ).status,
    ).toBe(400);
    expect(await count()).toBe(before);
    expect((await problemsOf(database.db, booking.bookingId)).length).toBe(0);

    const made = await post(booking.bookingId, person.cookie, [
      ["stage.png", PNG, "image/png"],
      ["contract.pdf", Buffer.from("%PDF-1.4\n%fake but starts right\n"), "application/pdf"],
    ]);
    expect(made.status).toBe(303);
    const [file] = await queryRows<{ id: string; sha256: string; key: string; type: string }>(
      database.db,
      sql`SELECT f.id, f.sha256, f.storage_key AS key, f.content_type AS type FROM problem_files f
          JOIN problem_reports p ON p.id = f.report_id
          WHERE p.booking_id = ${booking.bookingId} AND f.name = 'stage.png'`,
    );
    expect(file?.type).toBe("image/png");
    expect(file?.sha256).toBe(createHash("sha256").update(PNG).digest("hex"));

    const address = `/bookings/${booking.bookingId}/problem/files/${file?.id}`;
    const mine = await app.request(address, { headers: { Cookie: person.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-disposition")).toContain("attachment");
    expect(Buffer.from(await mine.arrayBuffer())).toEqual(PNG);
    const opCookie = await signedInUser(app, database.db, "Desk");
    await addOperator(database.db, "cli", opCookie.email, new Date());
    expect((await app.request(address, { headers: { Cookie: opCookie.cookie } })).status).toBe(200);
    const stranger = await signedInUser(app, database.db, "Stranger");
    expect((await app.request(address, { headers: { Cookie: stranger.cookie } })).status).toBe(404);
    expect((await app.request(address)).status).toBe(404);
    // Never through the public files address.
    expect((await app.request(`/files/${file?.key}`)).status).toBe(404);
  });
});

describe("the books after all of it", () => {
  it("reconcile to an unexplained difference of ₹0.00", async () => {
    clock.reset();
    await drain();
    const report = await reconciliationReport(database.db, reconcileProviderOf(app.env), {
      now: clock.now(),
      timeZone: app.env.timeZone,
    });
    expect(report.integrity.ok).toBe(true);
    expect(formatReport(report)).toContain("Unexplained difference: ₹0.00");
    expect(report.unexplainedPaise).toBe(0);
  });
});
