import { and, eq, sql } from "drizzle-orm";
import {
  addChangeRequest,
  addOffer,
  agreementInForce,
  closeOpenOffer,
  freezeAgreement,
  offerCountOf,
  openOfferOf,
  recordAcceptance,
  type StoredOffer,
} from "~/features/agreements/agreements.server";
import {
  needsFirstPayment,
  startBookingPayments,
} from "~/features/payments/booking-payments.server";
import { paymentRouteOf } from "~/features/payments/payouts.server";
import { policyTerms } from "~/features/terms/policies";
import type { SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import { refuse } from "~/lib/problem";
import { bookings } from "~db/schema";
import { bookingUrl, emailOf, sendQuietly } from "./booking-mailer.server";
import { type BookingView, bookingOf } from "./booking-views.server";
import { BOOKING_REFUSALS } from "./bookings.constants";
import { isBookingArtist, isBookingClient } from "./bookings.policy";
import type { RequestOrigin } from "./bookings.schema";
import { lockBooking, lockForAgreement, markDateBooked, withDateGuard } from "./bookings.server";
import { quoteMails } from "./quote-mails";
import type { ChangeRequest, QuoteInput } from "./quotes.schema";
import { tellWithdrawn, withdrawOtherRequests } from "./request-groups.server";

// Quotes (docs/product.md, "Quotes and agreements"; decision 047): the artist answers a request,
// or proposes a change to an agreed booking, with a quote; the client accepts it, asks for changes
// or declines it. Every version is kept; accepting one freezes the booking's agreement.

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer" | "clock">;

/** At most this many versions of a booking's terms. */
export const OFFER_VERSIONS_MAX = 20;
const DAY_MS = 24 * 60 * 60_000;

const ONLY_ARTIST = "Only the artist of a pending request can send a quote.";
const QUOTE_CHANGED = "The quote changed while you were reading it.";

/** Quotes are for requests still pending, or agreed bookings, before the event's day. */
const quotable = (b: BookingView) =>
  (b.status === "pending" || b.status === "confirmed") && b.beforeEventDay;

/** The parties and the performance, as an offer repeats them. */
function factsOf(
  booking: BookingView,
  input: Pick<QuoteInput, "eventDate" | "startTime" | "durationHours">,
) {
  return {
    bookingId: booking.id,
    artist: {
      profileId: booking.artistProfileId ?? "",
      userId: booking.artistUserId ?? "",
      name: booking.artistName,
    },
    client: { userId: booking.clientUserId ?? "", name: booking.clientName },
    event: {
      date: input.eventDate,
      startTime: input.startTime,
      timeZone: booking.timeZone,
      durationMinutes: Math.round(input.durationHours * 60),
      venue: booking.venue,
      eventType: booking.eventType,
      eventName: booking.eventName,
    },
  };
}

/**
 * The artist sends a quote (a new version; the open one, if any, is superseded). The quote must
 * expire at least a day before the event, on a date still ahead.
 */
export async function sendQuote(
  ctx: Ctx,
  actor: SignedInActor,
  input: { bookingId: string; quote: QuoteInput } & RequestOrigin,
) {
  const booking = await bookingOf(ctx, actor, input.bookingId);
  if (!isBookingArtist(actor, booking) || !booking.clientUserId) refuse("forbidden", ONLY_ARTIST);
  if (!quotable(booking)) refuse("conflict", ONLY_ARTIST);
  const { quote } = input;
  const today = todayIn(booking.timeZone);
  if (quote.eventDate <= today) {
    const message = "Choose a date after today.";
    refuse("invalid", message, { fieldErrors: { eventDate: message } });
  }
  const at = ctx.clock.now();
  const expiresAt = new Date(at.getTime() + quote.expiresInDays * DAY_MS);
  const start = zonedDateTimeToUtc(quote.eventDate, quote.startTime ?? "00:00", booking.timeZone);
  if (expiresAt.getTime() > start.getTime() - DAY_MS) {
    const message = "The quote must expire at least a day before the event.";
    refuse("invalid", message, { fieldErrors: { expiresInDays: message } });
  }
  const offer = await ctx.db.transaction(async (tx) => {
    await lockBooking(tx, booking.id);
    const [current] = await tx
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, booking.id));
    if (current?.status !== "pending" && current?.status !== "confirmed")
      refuse("conflict", ONLY_ARTIST);
    if ((await offerCountOf(tx, booking.id)) >= OFFER_VERSIONS_MAX) {
      refuse(
        "conflict",
        "This booking has too many quote versions. Decline it or send a final quote.",
      );
    }
    return addOffer(tx, {
      facts: factsOf(booking, quote),
      choices: {
        kind: "quote",
        lines: quote.lines,
        depositBps: quote.depositPercent * 100,
        balanceDueDays: quote.balanceDueDays,
        cancellation: policyTerms(quote.policy as Parameters<typeof policyTerms>[0]),
        included: quote.included,
        notes: quote.notes,
        paidThrough: await paymentRouteOf(tx, ctx.env, {
          artistProfileId: booking.artistProfileId ?? "",
          bookingId: booking.id,
        }),
      },
      maker: {
        party: "artist",
        userId: actor.id,
        name: booking.artistName,
        ip: input.ip,
        userAgent: input.userAgent,
      },
      at,
      expiresAt,
    });
  });
  await sendQuietly(
    ctx,
    quoteMails.quoteSent(booking.clientEmail, booking, offer, bookingUrl(ctx, booking.id)),
  );
  return offer;
}

/** The open quote a client may answer: not expired, and the one they read (when a hash is given). */
function answerableQuote(offer: StoredOffer | null, sha256?: string, at = new Date()) {
  if (offer?.kind !== "quote") {
    refuse("conflict", "There is no open quote on this booking.", {
      reason: BOOKING_REFUSALS.quoteChanged,
    });
  }
  if (sha256 !== undefined && sha256 !== offer.sha256) {
    refuse("conflict", QUOTE_CHANGED, { reason: BOOKING_REFUSALS.quoteChanged });
  }
  if (offer.expiresAt && offer.expiresAt.getTime() <= at.getTime()) {
    refuse("gone", "This quote has expired. Ask the artist for a new one.", {
      reason: BOOKING_REFUSALS.quoteChanged,
    });
  }
  return offer;
}

function requireClient(actor: SignedInActor, booking: BookingView, doing: string) {
  if (!isBookingClient(actor, booking)) refuse("forbidden", `Only the client can ${doing}.`);
  if (!quotable(booking)) refuse("conflict", "This booking can no longer be changed.");
}

/**
 * The client accepts the open quote they read (`sha256`): the booking takes the quote's date, time
 * and length, is confirmed (or stays confirmed, on its new terms), and the quote freezes into the
 * agreement in force. A date that has become unavailable cannot be agreed; of two quotes for the
 * same artist and date accepted at once, exactly one wins (the one-confirmed-booking index).
 */
export async function acceptQuote(
  ctx: Ctx,
  actor: SignedInActor,
  input: { bookingId: string; sha256: string } & RequestOrigin,
) {
  const booking = await bookingOf(ctx, actor, input.bookingId);
  requireClient(actor, booking, "accept a quote");
  const at = ctx.clock.now();
  const { agreement, withdrawn } = await withDateGuard("client", () =>
    ctx.db.transaction(async (tx) => {
      await lockForAgreement(tx, booking.id);
      const offer = answerableQuote(
        await openOfferOf(tx, booking.id, { forUpdate: true }),
        input.sha256,
        at,
      );
      const [current] = await tx
        .select({ status: bookings.status, eventDate: bookings.eventDate })
        .from(bookings)
        .where(eq(bookings.id, booking.id));
      if (current?.status !== "pending" && current?.status !== "confirmed")
        refuse("conflict", "This booking can no longer be changed.");
      const { event, price } = offer.document;
      if (event.date < todayIn(booking.timeZone))
        refuse("conflict", "The quote's date has passed. Ask the artist for a new one.");
      await recordAcceptance(tx, {
        offerId: offer.id,
        party: "client",
        userId: actor.id,
        sha256Shown: input.sha256,
        at,
        ip: input.ip,
        userAgent: input.userAgent,
      });
      const agreeing = current.status === "pending";
      // Paid through GigLedger, a first agreement waits for its first payment to be confirmed.
      const awaitingDeposit = agreeing && needsFirstPayment(offer.document, at);
      await tx
        .update(bookings)
        .set({
          eventDate: event.date,
          startTime: event.startTime,
          durationHours: event.durationMinutes / 60,
          totalAmount: price.totalPaise / 100,
          ...(agreeing
            ? awaitingDeposit
              ? { status: "awaiting_deposit" as const, respondedAt: at }
              : { status: "confirmed" as const, respondedAt: at, confirmedAt: at }
            : {}),
          updatedAt: at,
        })
        .where(and(eq(bookings.id, booking.id), sql`${bookings.status} = ${current.status}`));
      if (!awaitingDeposit && (agreeing || event.date !== current.eventDate)) {
        await markDateBooked(
          tx,
          { artistProfileId: booking.artistProfileId ?? "", eventDate: event.date },
          "client",
        );
      }
      const agreement = await freezeAgreement(tx, ctx.env, { offerId: offer.id, at });
      await startBookingPayments(tx, {
        bookingId: booking.id,
        agreement: agreement.signed.agreement,
        at,
      });
      // A first agreement withdraws the client's other requests of the group (decision 060).
      const withdrawn = agreeing ? await withdrawOtherRequests(tx, booking.id, at) : [];
      return { agreement, withdrawn };
    }),
  );
  await tellWithdrawn(ctx, withdrawn);
  const artistEmail = await emailOf(ctx, booking.artistUserId);
  await sendQuietly(
    ctx,
    quoteMails.quoteAccepted(artistEmail, booking, agreement.sha256, bookingUrl(ctx, booking.id)),
  );
  return agreement;
}

/** The client asks for changes to the open quote: a message and optional wishes, to the artist. */
export async function askForChanges(
  ctx: Ctx,
  actor: SignedInActor,
  input: { bookingId: string; change: ChangeRequest },
) {
  const booking = await bookingOf(ctx, actor, input.bookingId);
  requireClient(actor, booking, "ask for changes");
  const { change } = input;
  await ctx.db.transaction(async (tx) => {
    await lockBooking(tx, booking.id);
    const offer = answerableQuote(await openOfferOf(tx, booking.id));
    await addChangeRequest(tx, {
      offerId: offer.id,
      userId: actor.id,
      message: change.message,
      wishedTotalPaise: change.wishedTotal,
      wishedDepositBps:
        change.wishedDepositPercent === null ? null : change.wishedDepositPercent * 100,
      wishedPolicy: change.wishedPolicy,
      at: ctx.clock.now(),
    });
  });
  const artistEmail = await emailOf(ctx, booking.artistUserId);
  await sendQuietly(
    ctx,
    quoteMails.changesAsked(artistEmail, booking, change.message, bookingUrl(ctx, booking.id)),
  );
}

/**
 * The client declines the open quote. A request's quote declined ends the request (cancelled by
 * the client); a proposed change declined leaves the agreement in force as it was.
 */
export async function declineQuote(ctx: Ctx, actor: SignedInActor, input: { bookingId: string }) {
  const booking = await bookingOf(ctx, actor, input.bookingId);
  requireClient(actor, booking, "decline a quote");
  const at = ctx.clock.now();
  const endsRequest = await ctx.db.transaction(async (tx) => {
    await lockBooking(tx, booking.id);
    answerableQuote(await openOfferOf(tx, booking.id), undefined, new Date(0));
    await closeOpenOffer(tx, booking.id, "declined", at);
    if (await agreementInForce(tx, booking.id)) return false;
    const ended = await tx
      .update(bookings)
      .set({ status: "cancelled", cancelledAt: at, cancelledBy: "client", updatedAt: at })
      .where(and(eq(bookings.id, booking.id), eq(bookings.status, "pending")))
      .returning({ id: bookings.id });
    return ended.length > 0;
  });
  const artistEmail = await emailOf(ctx, booking.artistUserId);
  await sendQuietly(
    ctx,
    quoteMails.quoteDeclined(artistEmail, booking, endsRequest, bookingUrl(ctx, booking.id)),
  );
  return { endsRequest };
}
