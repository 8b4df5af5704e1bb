// What the money tests share (after app/features/payments/money-flow.integration.test.ts): an
// artist with payouts set up through the embedded provider, a client's request, the hosted page
// paid as a client pays it, and the figures read back from our tables and the provider's.
import { sql } from "drizzle-orm";
import type { ArtistProfileInput } from "~/features/artists/artists.schema";
import { createBookingRequest } from "~/features/bookings/booking-requests.server";
import { acceptBooking } from "~/features/bookings/bookings.server";
import { startCheckout } from "~/features/payments/checkout.server";
import type { PaymentProvider } from "~/features/payments/payment-provider";
import { setUpPayouts } from "~/features/payments/payouts.server";
import type { SignedInActor } from "~/lib/actor";
import { addDays, todayIn } from "~/lib/dates";
import { type Queryable, queryRows } from "~db/client";
import { artistActor, createArtist, createUser } from "~seed/factories";

export type MoneyCtx = Parameters<typeof createBookingRequest>[0];

export const clientActor = (user: { id: string }): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId: null,
});

/** An artist with payouts set up through the provider, with the published terms given. */
export async function artistWithPayouts(
  ctx: MoneyCtx,
  provider: PaymentProvider,
  terms: Partial<Pick<ArtistProfileInput, "depositBps" | "cancellationPolicy">> = {},
) {
  const artist = await createArtist({ db: ctx.db }, terms);
  await setUpPayouts(
    ctx.db,
    provider,
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
  return artist;
}

/**
 * A client's request, `daysAhead` days from today, to the artist given or to a new one with
 * payouts set up (and the terms given).
 */
export async function bookingWithPayouts(
  ctx: MoneyCtx,
  provider: PaymentProvider,
  options: {
    daysAhead: number;
    terms?: Parameters<typeof artistWithPayouts>[2];
    artist?: Awaited<ReturnType<typeof artistWithPayouts>>;
  },
) {
  const artist = options.artist ?? (await artistWithPayouts(ctx, provider, options.terms));
  const client = await createUser(ctx.db);
  const booking = await createBookingRequest(ctx, clientActor(client), {
    artistId: artist.artistId,
    eventDate: addDays(todayIn(ctx.env.timeZone), options.daysAhead),
    startTime: "19:00",
    durationHours: 2,
    venue: "Grand Hall",
    eventType: "Wedding",
    message: null,
  });
  return { artist, client, bookingId: booking.id };
}

export type MoneyBooking = Awaited<ReturnType<typeof bookingWithPayouts>>;

/** The artist accepts: the booking waits for its deposit. */
export async function accept(ctx: MoneyCtx, booking: MoneyBooking) {
  await acceptBooking(ctx, artistActor(booking.artist), booking.bookingId);
}

/** The client's next payment link (the deposit, then the balance). */
export function checkout(ctx: MoneyCtx, provider: PaymentProvider, booking: MoneyBooking) {
  return startCheckout(
    ctx,
    provider,
    { userId: booking.client.id, name: booking.client.name, email: booking.client.email },
    booking.bookingId,
  );
}

/** Pays the hosted page as the client would, with the button that succeeds. */
export async function payAt(url: string) {
  const res = await fetch(url, {
    method: "POST",
    body: new URLSearchParams({ outcome: "upi" }),
    redirect: "manual",
  });
  await res.body?.cancel();
  if (res.status !== 200 && res.status !== 303)
    throw new Error(`paying at ${url} answered ${res.status}`);
}

export async function statusOf(db: Queryable, bookingId: string) {
  const [row] = await queryRows<{ status: string }>(
    db,
    sql`SELECT status FROM bookings WHERE id = ${bookingId}`,
  );
  return row?.status;
}

/** The kinds of the booking's ledger transactions, in order ("capture", "split", …). */
export async function ledgerKinds(db: Queryable, bookingId: string) {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`SELECT idempotency_key AS key FROM ledger_txns WHERE booking_id = ${bookingId} ORDER BY seq`,
  );
  return rows.map((r) => r.key.split(":")[0] ?? "");
}

export const countOf = (kinds: string[], kind: string) => kinds.filter((k) => k === kind).length;

/** The provider's payment ids of the booking's captured payments. */
export async function paymentIdsOf(db: Queryable, bookingId: string) {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT provider_payment_id AS id FROM payment_intents
        WHERE booking_id = ${bookingId} AND provider_payment_id IS NOT NULL ORDER BY created_at`,
  );
  return rows.map((r) => r.id);
}

export type PspState = {
  payments: { id: string; status: string; amount: number }[];
  refunds: { id: string; payment_id: string; amount: number }[];
  transfers: { id: string; source: string; amount: number; on_hold: boolean }[];
  reversals: { id: string; transfer_id: string; amount: number }[];
  webhooks: {
    id: string;
    event: string;
    delivered_at: number | null;
    body: string;
    signature: string;
  }[];
};

/** The embedded provider's state (its `/_control/state`), from any app that serves it. */
export async function pspStateAt(request: (path: string) => Promise<Response>) {
  const res = await request("/dev/psp/_control/state");
  if (!res.ok) throw new Error(`/dev/psp/_control/state answered ${res.status}`);
  return (await res.json()) as PspState;
}
