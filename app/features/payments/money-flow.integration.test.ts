import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBookingRequest } from "~/features/bookings/booking-requests.server";
import {
  acceptBooking,
  cancelBooking,
  cancelForNonPayment,
  giveMoreTime,
} from "~/features/bookings/bookings.server";
import type { SignedInActor } from "~/lib/actor";
import { isLocalClock } from "~/lib/clock.server";
import { addDays, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import { runQueuesNow } from "~/lib/jobs.server";
import { queryRows } from "~db/client";
import { artistActor, createArtist, createUser } from "~seed/factories";
import type { MoneyCtx } from "../../../tests/support/money/booking-money";
import { type MoneyApp, startMoneyApp } from "../../../tests/support/money/money-app";
import { startCheckout } from "./checkout.server";
import { bookingAccountsOf, ledgerIntegrity } from "./ledger.server";
import { payoutsOf, setUpPayouts } from "./payouts.server";
import { signRazorpayWebhook } from "./webhook-signature";

// Money through the platform end to end on the server (docs/decisions/055): the app listens on a
// loopback port, the embedded provider's API and webhooks go over real HTTP, and the jobs run as
// the runner would run them. Every figure is read back from the ledger and the provider's state.

let money: MoneyApp;
let database: MoneyApp["database"];
let app: MoneyApp["app"];
let ctx: MoneyCtx;

beforeAll(async () => {
  money = await startMoneyApp();
  ({ database, app, ctx } = money);
}, 120_000);
afterAll(() => money?.close());
afterEach(() => {
  if (isLocalClock(app.clock)) app.clock.reset();
});

const provider = () => money.provider();
const as = (user: { id: string }): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId: null,
});
/** Runs the webhook deliveries, the events and the commands (`extra` first) until nothing is left. */
const drain = (extra: string[] = []) => money.drain(extra);

async function bookingWithPayouts(daysAhead = 30) {
  const artist = await createArtist({ db: database.db });
  await setUpPayouts(
    database.db,
    provider(),
    { artistProfileId: artist.artistId, email: artist.user.email },
    {
      legalName: "Asha Rao",
      pan: "ABCDE1234F",
      method: "upi",
      upi: "asha@okhdfcbank",
      accountNumber: "",
      ifsc: "",
    },
  );
  const client = await createUser(database.db);
  const booking = await createBookingRequest(ctx, as(client), {
    artistId: artist.artistId,
    eventDate: addDays(todayIn(app.env.timeZone), daysAhead),
    startTime: "19:00",
    durationHours: 2,
    venue: "Grand Hall",
    eventType: "Wedding",
    message: null,
  });
  return { artist, client, bookingId: booking.id };
}

async function statusOf(bookingId: string) {
  const [row] = await queryRows<{ status: string }>(
    database.db,
    sql`SELECT status FROM bookings WHERE id = ${bookingId}`,
  );
  return row?.status;
}

/** Pays the hosted page as the client would, with the button that succeeds (or fails). */
async function payAt(url: string, outcome: "upi" | "card" = "upi") {
  const res = await fetch(url, {
    method: "POST",
    body: new URLSearchParams({ outcome }),
    redirect: "manual",
  });
  expect([200, 303]).toContain(res.status);
  return res;
}

async function checkout(booking: {
  bookingId: string;
  client: { id: string; name: string; email: string };
}) {
  return startCheckout(
    ctx,
    provider(),
    { userId: booking.client.id, name: booking.client.name, email: booking.client.email },
    booking.bookingId,
  );
}

/** The agreed total, in paise. */
async function totalOf(bookingId: string) {
  const [row] = await queryRows<{ total: number }>(
    database.db,
    sql`SELECT (total_amount * 100)::int AS total FROM bookings WHERE id = ${bookingId}`,
  );
  return row?.total ?? -1;
}

async function ledgerKeys(bookingId: string) {
  const rows = await queryRows<{ key: string }>(
    database.db,
    sql`SELECT idempotency_key AS key FROM ledger_txns WHERE booking_id = ${bookingId} ORDER BY seq`,
  );
  return rows.map((r) => r.key.split(":")[0]);
}

async function balances(bookingId: string) {
  const accounts = await bookingAccountsOf(database.db, bookingId);
  return Object.fromEntries(accounts.map((a) => [a.id.split(":").at(-1), a.balance]));
}

async function pspState() {
  const res = await app.request("/dev/psp/_control/state");
  return (await res.json()) as Record<string, Record<string, unknown>[]>;
}

describe("a booking paid through GigLedger", () => {
  it("waits for the deposit, is confirmed by the provider's event, and pays out 48 hours after the event", async () => {
    const booking = await bookingWithPayouts(30);
    await acceptBooking(ctx, artistActor(booking.artist), booking.bookingId);
    expect(await statusOf(booking.bookingId)).toBe("awaiting_deposit");

    const url = await checkout(booking);
    // A second click re-uses the live link: no second charge can be made.
    expect(await checkout(booking)).toBe(url);
    await payAt(url);
    // Coming back proves nothing: until the event is applied the booking still waits.
    expect(await statusOf(booking.bookingId)).toBe("awaiting_deposit");
    await drain();
    expect(await statusOf(booking.bookingId)).toBe("confirmed");

    const [intent] = await queryRows<{ amount: number; share: number; fee: number }>(
      database.db,
      sql`SELECT amount_paise::int AS amount, artist_share_paise::int AS share,
            (commission_paise + gst_paise)::int AS fee
          FROM payment_intents WHERE booking_id = ${booking.bookingId} AND status = 'captured'`,
    );
    expect(intent).toBeDefined();
    expect(await balances(booking.bookingId)).toMatchObject({
      held: 0,
      artist_hold: intent?.share,
      fee_unearned: intent?.fee,
    });
    const afterDeposit = await pspState();
    expect(afterDeposit.transfers?.filter((t) => t.on_hold === true).length).toBeGreaterThan(0);

    // The balance, then the event passes.
    const balanceUrl = await checkout(booking);
    expect(balanceUrl).not.toBe(url);
    await payAt(balanceUrl);
    await drain();
    const total = await queryRows<{ paid: number }>(
      database.db,
      sql`SELECT sum(amount_paise)::int AS paid FROM payment_intents
          WHERE booking_id = ${booking.bookingId} AND status = 'captured'`,
    );
    const agreed = await totalOf(booking.bookingId);
    expect(total[0]?.paid).toBe(agreed);

    if (!isLocalClock(app.clock)) throw new Error("the test app's clock is local");
    const [release] = await queryRows<{ at: Date | string }>(
      database.db,
      sql`SELECT release_at AS at FROM bookings WHERE id = ${booking.bookingId}`,
    );
    const releaseAt = new Date(String(release?.at));
    app.clock.set(new Date(releaseAt.getTime() - 60_000));
    await drain(["payments.release"]);
    expect((await balances(booking.bookingId)).artist_hold).toBeGreaterThan(0);

    app.clock.set(new Date(releaseAt.getTime() + 60_000));
    await drain(["payments.release"]);
    expect(await balances(booking.bookingId)).toMatchObject({
      held: 0,
      artist_hold: 0,
      fee_unearned: 0,
      tds_hold: 0,
      refund_pending: 0,
    });
    const [invoice] = await queryRows<{ number: number; commission: number }>(
      database.db,
      sql`SELECT number, commission_paise::int AS commission FROM commission_invoices
          WHERE booking_id = ${booking.bookingId}`,
    );
    expect(invoice?.commission).toBe(agreed / 10); // 10 % of what the artist kept
    // At the provider, both of the booking's transfers are off hold now.
    const ours = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM provider_transfers WHERE booking_id = ${booking.bookingId}`,
    );
    const atProvider = (await pspState()).transfers?.filter((t) => ours.some((o) => o.id === t.id));
    expect(atProvider?.map((t) => t.on_hold)).toEqual([false, false]);
    expect(await ledgerKeys(booking.bookingId)).toEqual([
      "capture",
      "split",
      "transfer",
      "capture",
      "split",
      "transfer",
      "release",
    ]);
    const integrity = await ledgerIntegrity(database.db);
    expect(integrity).toEqual({ sumOfBalances: 0, mismatched: [] });

    // The artist's payouts page: this booking paid, nothing held, all of the share released.
    const payouts = await payoutsOf(database.db, booking.artist.artistId);
    expect(payouts.lines).toHaveLength(1);
    expect(payouts.lines[0]).toMatchObject({ paidPaise: agreed, heldPaise: 0, refundedPaise: 0 });
    expect(payouts.totals.releasedPaise).toBe(agreed - agreed / 10 - (agreed / 10) * 0.18);

    // Each money event is mailed once to whom it concerns, with its receipt.
    await runQueuesNow(database.db, app.jobHandlers, ["payments.mail"], { clock: app.clock });
    const mails = await app.mailer.outbox();
    const toClient = mails.filter((m) => m.to === booking.client.email);
    const toArtist = mails.filter((m) => m.to === booking.artist.user.email);
    const receipts = toClient
      .filter((m) => m.subject.startsWith("Payment received"))
      .map((m) => m.attachments?.map((a) => a.filename)[0]);
    expect(receipts).toHaveLength(2);
    expect(receipts.every((name) => name?.startsWith("payment-receipt-pay_"))).toBe(true);
    const payout = toArtist.find((m) => m.subject.startsWith("Payout released"));
    expect(payout?.attachments?.map((a) => a.filename.split("-").slice(0, 2).join("-"))).toEqual([
      "payout-statement",
      "commission-invoice",
    ]);
    await runQueuesNow(database.db, app.jobHandlers, ["payments.mail"], { clock: app.clock });
    expect(await app.mailer.outbox()).toHaveLength(mails.length);
  }, 120_000);

  it("applies a payment once however often, and in whatever order, its events arrive", async () => {
    const booking = await bookingWithPayouts(40);
    await acceptBooking(ctx, artistActor(booking.artist), booking.bookingId);
    await app.request("/dev/psp/_control/webhooks/hold", { method: "POST" });
    await payAt(await checkout(booking));
    const state = await pspState();
    const events = (state.webhooks ?? []).filter((w) => w.delivered_at === null);
    for (const event of events)
      await app.request(`/dev/psp/_control/webhooks/${event.id}/redeliver?times=2`, {
        method: "POST",
      });
    await app.request("/dev/psp/_control/webhooks/release?order=reverse", { method: "POST" });
    await drain();
    expect(await statusOf(booking.bookingId)).toBe("confirmed");
    expect((await ledgerKeys(booking.bookingId)).filter((k) => k === "capture")).toHaveLength(1);
    const stored = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM provider_events WHERE event_type = 'payment_link.paid'
            AND raw_body LIKE ${`%${booking.bookingId}%`}`,
    );
    expect(stored[0]?.n).toBe(1);
  }, 120_000);

  it("refuses forged and tampered webhooks and stores nothing", async () => {
    const before = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM provider_events`,
    );
    const body = JSON.stringify({ entity: "event", event: "payment_link.paid", payload: {} });
    const secret = app.env.payments.mode === "off" ? "" : app.env.payments.webhookSecret;
    const cases: [string, Record<string, string>, string][] = [
      ["no signature", { "x-razorpay-event-id": "evt_forged1" }, body],
      [
        "wrong signature",
        { "x-razorpay-event-id": "evt_forged2", "x-razorpay-signature": "ab".repeat(32) },
        body,
      ],
      [
        "signed with another secret",
        {
          "x-razorpay-event-id": "evt_forged3",
          "x-razorpay-signature": signRazorpayWebhook(Buffer.from(body), "other"),
        },
        body,
      ],
      [
        "body changed after signing",
        {
          "x-razorpay-event-id": "evt_forged4",
          "x-razorpay-signature": signRazorpayWebhook(Buffer.from(body), secret),
        },
        `${body} `,
      ],
      [
        "no event id",
        { "x-razorpay-signature": signRazorpayWebhook(Buffer.from(body), secret) },
        body,
      ],
    ];
    for (const [name, headers, sent] of cases) {
      const res = await app.request("/webhooks/razorpay", { method: "POST", headers, body: sent });
      expect(res.status, name).toBe(400);
    }
    const huge = await app.request("/webhooks/razorpay", {
      method: "POST",
      headers: { "x-razorpay-event-id": "evt_big" },
      body: "x".repeat(1_100_000),
    });
    expect(huge.status).toBe(413);
    const after = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM provider_events`,
    );
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it("refunds a client's cancellation by the agreed policy and releases the rest at once", async () => {
    const booking = await bookingWithPayouts(20);
    await acceptBooking(ctx, artistActor(booking.artist), booking.bookingId);
    await payAt(await checkout(booking));
    await drain();
    expect(await statusOf(booking.bookingId)).toBe("confirmed");
    await cancelBooking(ctx, as(booking.client), booking.bookingId);
    await drain();
    const [row] = await queryRows<{ outcome: { refundPaise: number; paidPaise: number } }>(
      database.db,
      sql`SELECT cancel_outcome AS outcome FROM bookings WHERE id = ${booking.bookingId}`,
    );
    const refunded = (await pspState()).refunds?.reduce((sum, r) => sum + Number(r.amount), 0);
    expect(row?.outcome.paidPaise).toBe((await totalOf(booking.bookingId)) * 0.3);
    expect(refunded).toBeGreaterThanOrEqual(row?.outcome.refundPaise ?? -1);
    expect(await balances(booking.bookingId)).toMatchObject({
      held: 0,
      artist_hold: 0,
      fee_unearned: 0,
      refund_pending: 0,
    });
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
  }, 120_000);

  it("refunds everything when the artist cancels", async () => {
    const booking = await bookingWithPayouts(25);
    await acceptBooking(ctx, artistActor(booking.artist), booking.bookingId);
    await payAt(await checkout(booking));
    await drain();
    await cancelBooking(ctx, artistActor(booking.artist), {
      bookingId: booking.bookingId,
      reason: "I am unwell",
    });
    await drain();
    const [intent] = await queryRows<{ amount: number; refunded: number }>(
      database.db,
      sql`SELECT amount_paise::int AS amount, refunded_paise::int AS refunded
          FROM payment_intents WHERE booking_id = ${booking.bookingId} AND status = 'captured'`,
    );
    expect(intent?.refunded).toBe(intent?.amount);
    expect(await balances(booking.bookingId)).toMatchObject({
      held: 0,
      artist_hold: 0,
      fee_unearned: 0,
      refund_pending: 0,
    });
    const commission = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM commission_invoices WHERE booking_id = ${booking.bookingId}`,
    );
    expect(commission[0]?.n).toBe(0);
  }, 120_000);

  it("refunds in full a deposit whose news arrives after the booking lapsed", async () => {
    const booking = await bookingWithPayouts(30);
    await acceptBooking(ctx, artistActor(booking.artist), booking.bookingId);
    // Paid just in time, but the provider's events are held up past the deposit window.
    await app.request("/dev/psp/_control/webhooks/hold", { method: "POST" });
    await payAt(await checkout(booking));
    if (!isLocalClock(app.clock)) throw new Error("the test app's clock is local");
    app.clock.advance(49 * 3_600_000);
    await runQueuesNow(database.db, app.jobHandlers, ["payments.lapse"], { clock: app.clock });
    expect(await statusOf(booking.bookingId)).toBe("cancelled");
    await app.request("/dev/psp/_control/webhooks/release?order=as-is", { method: "POST" });
    await drain();
    const [intent] = await queryRows<{ amount: number; refunded: number }>(
      database.db,
      sql`SELECT amount_paise::int AS amount, refunded_paise::int AS refunded
          FROM payment_intents WHERE booking_id = ${booking.bookingId} AND provider_payment_id IS NOT NULL`,
    );
    expect(intent?.refunded).toBe(intent?.amount);
    expect(await statusOf(booking.bookingId)).toBe("cancelled");
    expect(await balances(booking.bookingId)).toMatchObject({ held: 0, refund_pending: 0 });
  }, 120_000);

  it("reminds of the balance, then lets the artist give more time or cancel for non-payment", async () => {
    const clock = app.clock;
    if (!isLocalClock(clock)) throw new Error("the test app's clock is local");
    const booking = await bookingWithPayouts(21);
    await acceptBooking(ctx, artistActor(booking.artist), booking.bookingId);
    await payAt(await checkout(booking));
    await drain();
    expect(await statusOf(booking.bookingId)).toBe("confirmed");
    const [agreement] = await queryRows<{ due: string }>(
      database.db,
      sql`SELECT json::jsonb -> 'agreement' -> 'offer' -> 'payments' ->> 'balanceDueDate' AS due
          FROM agreements WHERE booking_id = ${booking.bookingId} AND status = 'in_force'`,
    );
    const dueAt = zonedDateTimeToUtc(agreement?.due ?? "", "00:00", "Asia/Kolkata").getTime();
    const remind = async (at: number) => {
      clock.set(new Date(at));
      await runQueuesNow(database.db, app.jobHandlers, ["payments.reminders"], {
        clock: app.clock,
      });
    };
    await remind(dueAt - 3 * DAY + HOUR);
    await remind(dueAt + HOUR);
    await remind(dueAt + DAY + HOUR);
    await remind(dueAt + DAY + 2 * HOUR); // the same stage again: no second reminder
    const reminders = await queryRows<{ stage: string }>(
      database.db,
      sql`SELECT detail ->> 'stage' AS stage FROM money_events
          WHERE booking_id = ${booking.bookingId} AND kind = 'balance_reminder' ORDER BY at`,
    );
    expect(reminders.map((r) => r.stage)).toEqual(["3_days_before", "due_today", "overdue"]);

    // Not overdue yet within the grace; then more time moves the due date.
    const artist = artistActor(booking.artist);
    await expect(cancelForNonPayment(ctx, artist, booking.bookingId)).rejects.toThrow(
      /not overdue/,
    );
    clock.set(new Date(dueAt + 49 * HOUR));
    const later = new Date(dueAt + 3 * DAY).toISOString().slice(0, 10);
    await giveMoreTime(ctx, artist, { bookingId: booking.bookingId, dueDate: later });
    await expect(cancelForNonPayment(ctx, artist, booking.bookingId)).rejects.toThrow(
      /not overdue/,
    );

    // Past the new date and its grace, the artist cancels: the client's cancellation at the due date.
    clock.set(new Date(dueAt + 3 * DAY + 49 * HOUR));
    await cancelForNonPayment(ctx, artist, booking.bookingId);
    await drain();
    const [row] = await queryRows<{
      status: string;
      by: string;
      outcome: { refundPaise: number; at: string };
    }>(
      database.db,
      sql`SELECT status, cancelled_by AS by, cancel_outcome AS outcome FROM bookings
          WHERE id = ${booking.bookingId}`,
    );
    expect(row).toMatchObject({ status: "cancelled", by: "client" });
    expect(new Date(row?.outcome.at ?? "").getTime()).toBe(
      zonedDateTimeToUtc(later, "00:00", "Asia/Kolkata").getTime(),
    );
    const [intent] = await queryRows<{ refunded: number }>(
      database.db,
      sql`SELECT refunded_paise::int AS refunded FROM payment_intents
          WHERE booking_id = ${booking.bookingId} AND status = 'captured'`,
    );
    expect(intent?.refunded).toBe(row?.outcome.refundPaise);
    expect(await balances(booking.bookingId)).toMatchObject({
      held: 0,
      artist_hold: 0,
      fee_unearned: 0,
      refund_pending: 0,
    });
  }, 120_000);
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
