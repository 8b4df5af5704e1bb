/**
 * The demo's money (issue 41): every demo artist has payouts set up with the embedded provider,
 * and the demo client has a booking at each money stage, walked through the app's own paths:
 * requested, accepted, paid at the provider's hosted page, the capture applied and the provider
 * commands (held transfers, refunds, releases) carried out, so the ledger, the provider's state
 * and the timelines agree as they would after real use.
 *
 * At seed time no HTTP server listens, so the provider client reaches the embedded provider
 * in-process (a `fetch` into its Hono app) and each capture is applied directly, as the reconciler
 * applies one, instead of through a webhook. The demo's history sends no mail.
 */
import path from "node:path";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { busyStatusOn } from "~/features/availability/availability.server";
import {
  createBookingRequest,
  createGroupRequest,
} from "~/features/bookings/booking-requests.server";
import {
  acceptBooking,
  cancelBooking,
  confirmPaidBooking,
} from "~/features/bookings/bookings.server";
import { addCommand, applyCapture } from "~/features/payments/booking-payments.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { runBookingCommands } from "~/features/payments/payment-commands.server";
import type { PaymentProvider } from "~/features/payments/payment-provider";
import { setUpPayouts } from "~/features/payments/payouts.server";
import { createRazorpayClient } from "~/features/payments/razorpay-client.server";
import type { SignedInActor } from "~/lib/actor";
import { type Clock, createLocalClock } from "~/lib/clock.server";
import { addDays, type IsoDate, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/lib/mail.server";
import { type Database, queryRows } from "~db/client";
import { createDevPsp } from "../server/dev-psp/dev-psp";
import { createSession } from "./factories";

/** What seeding the money needs: the app's environment (payments on) and its logger. */
export type SeedMoney = { env: Env; logger: Logger };

export type DemoMoneyArtist = {
  artistId: string;
  userId: string;
  email: string;
  legalName: string;
  timeZone: string;
  location: string;
};

/** The money stages the demo client's bookings show, one artist each (by DEMO_ARTISTS index). */
export const DEMO_MONEY_STAGES = [
  { stage: "awaiting_deposit", artist: 0, daysAhead: 45, hours: 3, eventType: "Wedding" },
  { stage: "deposit_held", artist: 1, daysAhead: 40, hours: 3, eventType: "Private Event" },
  { stage: "fully_paid", artist: 2, daysAhead: 50, hours: 2, eventType: "Corporate Event" },
  { stage: "payout_released", artist: 3, daysAhead: 35, hours: 2, eventType: "Live Show" },
  // Inside the balance window (paid in full at once) and a week's notice (so no cooling-off):
  // Lily Chen's flexible policy keeps a quarter and gives three quarters back.
  { stage: "client_cancelled", artist: 5, daysAhead: 4, hours: 2, eventType: "Private Event" },
  { stage: "artist_cancelled", artist: 4, daysAhead: 30, hours: 3, eventType: "Live Show" },
] as const;

export type DemoMoneyStage = (typeof DEMO_MONEY_STAGES)[number]["stage"];

const VENUE = "The Grand Pavilion";
const START_TIME = "19:00";

/** The demo's bookings make no news: nobody is mailed about them. */
const silentMailer: Mailer = { send: async () => {}, outbox: async () => [] };

type Ctx = {
  db: Database;
  env: Env;
  logger: Logger;
  mailer: Mailer;
  clock: Clock;
};

/**
 * The embedded provider's client, reaching its Hono app in-process at the path the app serves it
 * on (`PAYMENTS=local`); null for a real provider, which the demo never charges.
 */
function inProcessProvider(db: Database, env: Env, clock: Clock) {
  const config = env.payments;
  if (config.mode !== "local") return null;
  const host = new Hono();
  host.route(new URL(config.apiBase).pathname, createDevPsp({ db, clock }));
  const send = async (input: RequestInfo | URL, init?: RequestInit) => host.request(input, init);
  const provider = createRazorpayClient({
    keyId: config.keyId,
    keySecret: config.keySecret,
    baseUrl: config.apiBase,
    fetch: send as typeof fetch,
  });
  return { provider, send };
}

/**
 * Payouts for every demo artist, then the demo client's bookings at each stage. Runs in the
 * seed's transaction, once, in the run that created the demo artists.
 */
export async function seedDemoMoney(
  db: Database,
  input: SeedMoney & {
    client: { id: string; name: string; email: string };
    artists: DemoMoneyArtist[];
  },
) {
  // The app's clock as the app will read it (decision 054): a local app's time may run ahead.
  const clock = createLocalClock(path.join(input.env.dataDir, "clock.json"));
  const reached = inProcessProvider(db, input.env, clock);
  if (!reached) return [];
  const { provider, send } = reached;
  const ctx: Ctx = { db, env: input.env, logger: input.logger, mailer: silentMailer, clock };

  for (const [i, artist] of input.artists.entries())
    await setUpPayouts(
      db,
      provider,
      { artistProfileId: artist.artistId, email: artist.email },
      {
        legalName: artist.legalName,
        pan: `GLDPA${String(1001 + i).padStart(4, "0")}D`,
        method: "upi",
        upi: `${artist.legalName.toLowerCase().replace(/[^a-z]+/g, ".")}@okdemo`,
        accountNumber: "",
        ifsc: "",
      },
    );

  const client: SignedInActor = { id: input.client.id, roles: ["client"], artistProfileId: null };
  const seeded: { stage: DemoMoneyStage; bookingId: string }[] = [];
  for (const plan of DEMO_MONEY_STAGES) {
    const artist = input.artists[plan.artist];
    if (!artist) continue;
    const eventDate = await freeDate(ctx, client, artist, plan.daysAhead);
    const { id: bookingId } = await createBookingRequest(ctx, client, {
      artistId: artist.artistId,
      eventDate,
      startTime: START_TIME,
      durationHours: plan.hours,
      venue: VENUE,
      eventType: plan.eventType,
      message: "We would love to have you play for us.",
    });
    const asArtist: SignedInActor = {
      id: artist.userId,
      roles: ["artist"],
      artistProfileId: artist.artistId,
    };
    await acceptBooking(ctx, asArtist, bookingId);
    const pay = () => payDue(ctx, provider, send, input.client, bookingId);
    switch (plan.stage) {
      case "awaiting_deposit":
        break;
      case "deposit_held":
        await pay();
        break;
      case "fully_paid":
        await pay();
        await pay();
        break;
      case "payout_released":
        await pay();
        await pay();
        // The event is ahead (requests take no past dates): the payout is released now, as the
        // release job does 48 hours after an event.
        await addCommand(db, { kind: "release_transfer", bookingId, request: { reason: "demo" } });
        await runBookingCommands(ctx, provider, bookingId);
        // The gig in the artist's history, linked to its booking: Paid & agreed.
        await createSession(db, artist.artistId, {
          title: `${plan.eventType} at ${VENUE}`,
          sessionType: "performance",
          startTime: zonedDateTimeToUtc(eventDate, START_TIME, artist.timeZone),
          durationMinutes: plan.hours * 60,
          venue: VENUE,
          location: artist.location,
          bookingId,
        });
        break;
      case "client_cancelled":
        await pay();
        await cancelBooking(ctx, client, bookingId);
        await runBookingCommands(ctx, provider, bookingId);
        break;
      case "artist_cancelled":
        await pay();
        await cancelBooking(ctx, asArtist, {
          bookingId,
          reason: "A family emergency: I have to be out of town that week. I am so sorry.",
        });
        await runBookingCommands(ctx, provider, bookingId);
        break;
    }
    seeded.push({ stage: plan.stage, bookingId });
  }

  // One request to three artists, waiting for their answers (decision 060): the first to accept
  // withdraws the others.
  const asked = input.artists.slice(-3);
  if (asked.length === 3) {
    const [first] = asked as [DemoMoneyArtist];
    await createGroupRequest(ctx, client, {
      artistIds: asked.map((a) => a.artistId),
      termsSha256: [],
      eventDate: await freeDate(ctx, client, first, 60),
      startTime: START_TIME,
      durationHours: 3,
      venue: "Sea Breeze Lawns",
      eventType: "Wedding",
      message: "A sangeet evening for about 200 guests. We are asking three of you.",
    });
  }

  // Everything the jobs would do is done: what the seed queued (the commands' wake-ups, the
  // agreement and money mails) is dropped, so a fresh start neither mails the demo users nor logs
  // their mails.
  const ids = seeded.map((s) => s.bookingId);
  if (ids.length > 0)
    await db.execute(sql`
      DELETE FROM jobs WHERE (queue = 'payments.commands' AND key IN ${ids})
        OR (queue = 'payments.mail' AND key IN (
          SELECT id::text FROM money_events WHERE booking_id IN ${ids}))
        OR (queue = 'agreements.mail' AND key IN (
          SELECT id::text FROM agreements WHERE booking_id IN ${ids}))`);
  return seeded;
}

/** The first day from `daysAhead` on (in the artist's zone) that the artist is free. */
async function freeDate(
  ctx: Ctx,
  client: SignedInActor,
  artist: DemoMoneyArtist,
  daysAhead: number,
): Promise<IsoDate> {
  const today = todayIn(artist.timeZone, ctx.clock.now());
  for (let d = daysAhead; d < daysAhead + 3; d++) {
    const date = addDays(today, d);
    if (!(await busyStatusOn(ctx, client, { artistId: artist.artistId, date }))) return date;
  }
  return addDays(today, daysAhead);
}

/**
 * The client pays what is due now: the hosted page's UPI button, then the capture applied as the
 * provider's event would apply it, then the commands it wrote (the held transfer) carried out.
 */
async function payDue(
  ctx: Ctx,
  provider: PaymentProvider,
  send: (input: string, init?: RequestInit) => Promise<Response>,
  payer: { id: string; name: string; email: string },
  bookingId: string,
) {
  const url = await startCheckout(
    ctx,
    provider,
    { userId: payer.id, name: payer.name, email: payer.email },
    bookingId,
  );
  const paid = await send(url, { method: "POST", body: new URLSearchParams({ outcome: "upi" }) });
  if (paid.status !== 200 && paid.status !== 303)
    throw new Error(`The demo payment was refused (${paid.status})`);
  const [intent] = await queryRows<{ id: string; linkId: string }>(
    ctx.db,
    sql`SELECT id, provider_link_id AS "linkId" FROM payment_intents
        WHERE booking_id = ${bookingId} AND status = 'pending' AND checkout_url = ${url}`,
  );
  if (!intent) throw new Error("The demo payment has no payment request");
  const link = await provider.fetchPaymentLink(intent.linkId);
  const payment = link.payments.find((p) => p.status === "captured");
  if (!payment) throw new Error("The demo payment was not captured");
  await ctx.db.transaction((tx) =>
    applyCapture(
      tx,
      { confirmPaidBooking },
      {
        intentId: intent.id,
        paymentId: payment.paymentId,
        amountPaise: payment.amount,
        at: ctx.clock.now(),
        source: "admin:demo-seed",
      },
    ),
  );
  await runBookingCommands(ctx, provider, bookingId);
}
