import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runQueuesNow } from "~/lib/jobs.server";
import { queryRows } from "~db/client";
import { startTestApp } from "../../../tests/support/app-harness";
import {
  accept,
  bookingWithPayouts,
  checkout,
  countOf,
  ledgerKinds,
  type MoneyCtx,
  payAt,
  paymentIdsOf,
  pspStateAt,
  statusOf,
} from "../../../tests/support/money/booking-money";
import { createTestDatabase } from "../../../tests/support/test-database";
import { ledgerIntegrity } from "./ledger.server";
import { paymentProviderOf } from "./provider.server";

// Two instances of the app on one database (design money-and-terms §3.9): each receives every
// provider event three times over, the provider redelivers each three times more, and both run
// the jobs at once. Exactly one capture per payment and one transfer per payment request.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let apps: Awaited<ReturnType<typeof startTestApp>>[];

beforeAll(async () => {
  database = await createTestDatabase();
  apps = [
    await startTestApp(database, {}, { listen: true }),
    await startTestApp(database, {}, { listen: true }),
  ];
}, 120_000);
afterAll(async () => {
  for (const app of apps ?? []) await app.close();
  await database?.dispose();
});

const QUEUES = ["dev-psp-webhook", "payments.events", "payments.commands"];

/** Both instances run the money queues at the same time until neither has work left. */
async function drainBoth() {
  for (let round = 0; round < 10; round++) {
    const runs = await Promise.all(
      apps.map((app) => runQueuesNow(database.db, app.jobHandlers, QUEUES, { clock: app.clock })),
    );
    const errors = runs.flat().flatMap((r) => r.errors);
    if (errors.length > 0) throw new Error(`jobs failed: ${JSON.stringify(errors)}`);
    if (runs.flat().every((r) => r.batches === 0)) return;
  }
  throw new Error("the money queues did not run dry");
}

describe("two instances processing the same events", () => {
  it("capture each payment once and transfer each once, whatever instance gets which copy", async () => {
    const bookings = [];
    for (const [i, app] of [apps[0], apps[1], apps[0], apps[1]].entries()) {
      if (!app) throw new Error("two apps");
      const ctx: MoneyCtx = {
        db: database.db,
        env: app.env,
        logger: pino({ level: "silent" }),
        mailer: app.mailer,
        clock: app.clock,
      };
      const provider = paymentProviderOf(app.env);
      if (!provider) throw new Error("payments are off");
      const booking = await bookingWithPayouts(ctx, provider, { daysAhead: 40 + i });
      await accept(ctx, booking);
      // Paid at this instance's hosted page: its provider sends the webhooks to this instance.
      await payAt(await checkout(ctx, provider, booking));
      bookings.push(booking);
    }

    // Nothing was delivered yet (no runner): every event goes three times to each instance at
    // once, and the provider queues three redeliveries of each besides its first delivery.
    const [first, second] = apps;
    if (!first || !second) throw new Error("two apps");
    const before = await pspStateAt(first.request);
    expect(before.webhooks.length).toBeGreaterThanOrEqual(bookings.length);
    const sent = await Promise.all(
      before.webhooks.flatMap((webhook) => {
        return apps.flatMap((app) =>
          [1, 2, 3].map(() =>
            fetch(new URL("/webhooks/razorpay", app.env.appUrl), {
              method: "POST",
              headers: {
                "content-type": "application/json",
                "x-razorpay-signature": webhook.signature,
                "x-razorpay-event-id": webhook.id,
              },
              body: webhook.body,
            }).then(async (res) => {
              await res.body?.cancel();
              return res.status;
            }),
          ),
        );
      }),
    );
    expect(new Set(sent)).toEqual(new Set([200]));
    for (const webhook of before.webhooks) {
      const res = await first.request(
        `/dev/psp/_control/webhooks/${webhook.id}/redeliver?times=3`,
        {
          method: "POST",
        },
      );
      expect(res.status).toBe(200);
    }
    await drainBoth();

    const state = await pspStateAt(first.request);
    for (const booking of bookings) {
      expect(await statusOf(database.db, booking.bookingId)).toBe("confirmed");
      const kinds = await ledgerKinds(database.db, booking.bookingId);
      expect(countOf(kinds, "capture")).toBe(1);
      expect(countOf(kinds, "transfer")).toBe(1);
      const [paymentId] = await paymentIdsOf(database.db, booking.bookingId);
      expect(state.transfers.filter((t) => t.source === paymentId)).toHaveLength(1);
      const perIntent = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM provider_transfers WHERE booking_id = ${booking.bookingId}
            GROUP BY intent_id`,
      );
      expect(perIntent.map((r) => r.n)).toEqual([1]);
    }
    // Each event stored once, however many copies came to however many instances.
    const stored = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM provider_events GROUP BY event_id HAVING count(*) > 1`,
    );
    expect(stored).toEqual([]);
    expect(await ledgerIntegrity(database.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
  }, 120_000);
});
