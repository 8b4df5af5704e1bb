import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { AgreementDocument } from "~/features/agreements/agreement-document";
import { eventStartOf } from "~/features/agreements/agreement-times";
import { cancelBooking } from "~/features/bookings/bookings.server";
import { cancellationOutcome } from "~/features/terms/cancellation";
import type { PolicyCode } from "~/features/terms/terms-types";
import type { LocalClock } from "~/lib/clock.server";
import { queryRows } from "~db/client";
import {
  accept,
  artistWithPayouts,
  bookingWithPayouts,
  checkout,
  clientActor,
  type MoneyCtx,
  payAt,
  paymentIdsOf,
  pspStateAt,
  statusOf,
} from "../../../tests/support/money/booking-money";
import { type MoneyApp, startMoneyApp } from "../../../tests/support/money/money-app";
import { bookingAccountsOf, ledgerIntegrity } from "./ledger.server";

// Refunds by the agreed policy across time (design money-and-terms §8.6): for each policy, a
// client cancels a paid booking a minute either side of each band's edge, by the app's clock; the
// provider refunds exactly what `cancellationOutcome` gives back on what was paid, and the
// booking's books end at zero. The deposit is the whole total, so every band's charge shows.

let money: MoneyApp;
let database: MoneyApp["database"];
let app: MoneyApp["app"];
let ctx: MoneyCtx;
let clock: LocalClock;

beforeAll(async () => {
  money = await startMoneyApp();
  ({ database, app, ctx, clock } = money);
}, 120_000);
afterAll(() => money?.close());
afterEach(() => clock.reset());

const provider = () => money.provider();
/** Runs the webhook deliveries, the events and the commands until nothing is left to do. */
const drain = () => money.drain();

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** The notice, in hours, at which each band starts (60, 30, 14 and 7 days, 48 hours). */
const EDGES_HOURS = [60 * 24, 30 * 24, 14 * 24, 7 * 24, 48];
/**
 * The client's charge in % of the total, by band from the longest notice (design §2.4), written
 * out here rather than read from policies.ts so that a changed table fails this test.
 */
const CHARGES: Record<PolicyCode, number[]> = {
  flexible: [0, 0, 0, 0, 25, 50],
  moderate: [10, 10, 30, 50, 100, 100],
  strict: [30, 50, 100, 100, 100, 100],
};

/**
 * A booking paid in full through the provider 63 days ahead or more (far enough that a
 * cancellation at 60 days' notice is past the 24 hours of cooling-off), cancelled by its client
 * at `noticeMs` before the event starts by the app's clock. Returns what was paid, what the
 * policy gives back and what the provider refunded.
 */
async function cancelPaidBooking(
  artist: Awaited<ReturnType<typeof artistWithPayouts>>,
  daysAhead: number,
  noticeMs: number,
) {
  clock.reset();
  const booking = await bookingWithPayouts(ctx, provider(), { daysAhead, artist });
  await accept(ctx, booking);
  await payAt(await checkout(ctx, provider(), booking));
  await drain();
  expect(await statusOf(database.db, booking.bookingId)).toBe("confirmed");

  const [row] = await queryRows<{ json: string }>(
    database.db,
    sql`SELECT json FROM agreements WHERE booking_id = ${booking.bookingId} AND status = 'in_force'`,
  );
  const agreement = (JSON.parse(String(row?.json)) as { agreement: AgreementDocument }).agreement;
  const at = new Date(eventStartOf(agreement).getTime() - noticeMs);
  clock.set(at);
  await cancelBooking(ctx, clientActor(booking.client), booking.bookingId);
  await drain();

  const [paid] = await queryRows<{ paise: number }>(
    database.db,
    sql`SELECT coalesce(sum(amount_paise), 0)::int AS paise FROM payment_intents
        WHERE booking_id = ${booking.bookingId} AND provider_payment_id IS NOT NULL`,
  );
  const paidPaise = paid?.paise ?? -1;
  const expected = cancellationOutcome({
    cancellation: agreement.offer.cancellation,
    totalPaise: agreement.offer.price.totalPaise,
    paidPaise,
    acceptedAt: new Date(agreement.frozenAt),
    eventStartAt: eventStartOf(agreement),
    canceller: "client",
    at,
  });
  const payments = await paymentIdsOf(database.db, booking.bookingId);
  const state = await pspStateAt(app.request);
  const refunded = state.refunds
    .filter((r) => payments.includes(r.payment_id))
    .reduce((sum, r) => sum + r.amount, 0);
  const [applied] = await queryRows<{ outcome: { refundPaise: number } }>(
    database.db,
    sql`SELECT cancel_outcome AS outcome FROM bookings WHERE id = ${booking.bookingId}`,
  );
  const accounts = await bookingAccountsOf(database.db, booking.bookingId);
  return {
    totalPaise: agreement.offer.price.totalPaise,
    paidPaise,
    expected,
    applied: applied?.outcome.refundPaise,
    refunded,
    balances: Object.fromEntries(accounts.map((a) => [a.id.split(":").at(-1), a.balance])),
  };
}

describe("refunds by the agreed policy, walked across its bands with the clock", () => {
  for (const policy of ["flexible", "moderate", "strict"] as const)
    it(`${policy}: a minute either side of each band's edge, the provider refunds what the policy gives back`, async () => {
      // One artist publishing the policy, a booking on a day of its own for each case.
      const artist = await artistWithPayouts(ctx, provider(), {
        depositBps: 10_000,
        cancellationPolicy: policy,
      });
      let daysAhead = 63;
      for (const [i, edgeHours] of EDGES_HOURS.entries()) {
        for (const [side, noticeMs, band] of [
          ["+1 min", edgeHours * HOUR + MINUTE, i],
          ["-1 min", edgeHours * HOUR - MINUTE, i + 1],
        ] as const) {
          const name = `${policy}, ${edgeHours} h ${side}`;
          const result = await cancelPaidBooking(artist, daysAhead++, noticeMs);
          expect(result.paidPaise, name).toBe(result.totalPaise);
          expect(result.expected.coolingOff, name).toBe(false);
          expect(result.expected.chargeBps, name).toBe((CHARGES[policy][band] ?? -1) * 100);
          expect(result.applied, name).toBe(result.expected.refundPaise);
          expect(result.refunded, name).toBe(result.expected.refundPaise);
          // Refund and payout done, nothing stays on the booking's accounts.
          for (const [account, balance] of Object.entries(result.balances))
            expect(balance, `${name}: ${account}`).toBe(0);
        }
      }
      expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
    }, 180_000);
});
