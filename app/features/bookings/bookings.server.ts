import { and, eq, gt, gte, ne, sql } from "drizzle-orm";
import {
  agreementsOf,
  closeOpenOffer,
  endAgreement,
  freezeAgreement,
  openOfferOf,
  recordAcceptance,
} from "~/features/agreements/agreements.server";
import {
  giveBalanceTime,
  needsFirstPayment,
  overdueBalanceOf,
  paidPaiseOf,
  recordNonPayment,
  refundOnCancellation,
  startBookingPayments,
} from "~/features/payments/booking-payments.server";
import type { SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { addDays, formatLongDate, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import { isProblem, refuse } from "~/lib/problem";
import { type Queryable, queryRows } from "~db/client";
import { availability, bookings } from "~db/schema";
import { bookingUrl, emailOf, sendQuietly } from "./booking-mailer.server";
import { bookingMails } from "./booking-mails";
import { type BookingView, bookingOf, todayOf } from "./booking-views.server";
import { BOOKING_REFUSALS } from "./bookings.constants";
import {
  type BookingStatus,
  canArtistCancelBooking,
  canCancelBooking,
  canRespondToBooking,
  isBookingArtist,
  isBookingClient,
} from "./bookings.policy";
import type { RequestOrigin } from "./bookings.schema";
import { cancellationNow } from "./cancel-now";
import { queueRatingRequests } from "./rating-mails.server";
import {
  lockRequestGroup,
  tellWithdrawn,
  WITHDRAWN_FOR_ANOTHER,
  withdrawOtherRequests,
} from "./request-groups.server";
import { substitutesFor } from "./substitutes.server";

// A booking's life after its request (booking-requests.server.ts): the artist answers it, either
// party cancels it, and the periodic job settles it once its date has passed.

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer" | "clock">;

/**
 * The periodic job: confirmed bookings whose date has passed in their artist's zone become
 * completed, pending ones cancelled. One statement, idempotent; reads already show its result
 * before it runs. `appToday` is today in the app's zone: it settles bookings whose artist is gone
 * and bounds the scan (no zone's today is more than two days after any other's). Each booking it
 * completes gets its rating mails (rating-mails.server.ts) in the same transaction.
 */
export async function autoCompletePastBookings(
  db: Queryable,
  appToday: string,
  now: Date = new Date(),
) {
  const changed = await queryRows<{ id: string; status: BookingStatus }>(
    db,
    sql`UPDATE bookings
      SET status = CASE status WHEN 'confirmed' THEN 'completed' ELSE 'cancelled' END,
          updated_at = now()
      WHERE status IN ('pending', 'awaiting_deposit', 'confirmed')
        AND event_date < ${addDays(appToday, 2)}
        AND event_date < coalesce(
          (SELECT (${now.toISOString()}::timestamptz AT TIME ZONE ap.time_zone)::date
            FROM artist_profiles ap
            WHERE ap.id = bookings.artist_profile_id),
          ${appToday}::date)
      RETURNING id, status`,
  );
  // Only the bookings this statement completes: one rated before it ran was completed by its
  // rating, and its client is not asked to rate it.
  await queueRatingRequests(
    db,
    changed.filter((r) => r.status === "completed").map((r) => r.id),
  );
  return {
    completed: changed.filter((r) => r.status === "completed").length,
    cancelled: changed.filter((r) => r.status === "cancelled").length,
  };
}

/** Holds the booking's row until the transaction ends (an answer or a rating at a time). */
export async function lockBooking(tx: Queryable, bookingId: string) {
  const [row] = await queryRows<{ id: string; withdrawn: boolean }>(
    tx,
    sql`SELECT id, withdrawn_for_id IS NOT NULL AS withdrawn FROM bookings
        WHERE id = ${bookingId} FOR UPDATE`,
  );
  return row;
}

/**
 * The locks every agreement takes, in order: its request group's, then the booking's row. A
 * request withdrawn for another of its group is refused, read under the row's lock so the artist
 * who lost a race for the group hears why.
 */
export async function lockForAgreement(tx: Queryable, bookingId: string) {
  await lockRequestGroup(tx, bookingId);
  const row = await lockBooking(tx, bookingId);
  if (row?.withdrawn) refuse("conflict", WITHDRAWN_FOR_ANOTHER);
  return row;
}

const UNIQUE_VIOLATION = "23505";

function isUniqueViolation(error: unknown) {
  const code =
    (error as { cause?: { code?: string }; code?: string }).cause?.code ??
    (error as { code?: string }).code;
  return code === UNIQUE_VIOLATION;
}

/** Still pending as of `day` (what accept and decline change). */
const stillPending = (day: string) =>
  and(eq(bookings.status, "pending"), gte(bookings.eventDate, day));

/**
 * Marks the booking's date booked for its artist, in the transaction that confirms the booking (or
 * moves it to another date). A date the artist marked unavailable refuses: they make it available
 * again first, or decline.
 */
export async function markDateBooked(
  tx: Queryable,
  booking: { artistProfileId: string; eventDate: string },
  who: "artist" | "client",
) {
  const marked = await tx
    .insert(availability)
    .values({ artistProfileId: booking.artistProfileId, date: booking.eventDate, status: "booked" })
    .onConflictDoUpdate({
      target: [availability.artistProfileId, availability.date],
      set: { status: "booked", updatedAt: new Date() },
      setWhere: ne(availability.status, "unavailable"),
    })
    .returning({ id: availability.id });
  if (marked.length === 0) {
    refuse(
      "conflict",
      who === "artist"
        ? `You marked ${formatLongDate(booking.eventDate)} as unavailable. Make the date available again in your schedule to accept this request, or decline it.`
        : `The artist is no longer available on ${formatLongDate(booking.eventDate)}. Ask them for another date.`,
      { reason: BOOKING_REFUSALS.dateMarkedUnavailable },
    );
  }
}

/**
 * The first payment of a booking paid through GigLedger arrived (the payments' hook, in their
 * transaction): awaiting deposit → confirmed, its payout's release time set (`releaseAt`), and its
 * date booked. A date taken or marked unavailable meanwhile cancels the booking instead
 * ("date_taken"), and the payment is refunded. The date is checked in the confirming statement
 * itself (no savepoint, one round trip); a race lost after that check still meets the
 * one-confirmed-booking-per-date index, which aborts the transaction, and the payments' retry then
 * finds the date taken here.
 */
export async function confirmPaidBooking(
  tx: Queryable,
  bookingId: string,
  at: Date,
  releaseAt?: Date,
): Promise<"confirmed" | "date_taken"> {
  const [booking] = await queryRows<{ artistProfileId: string; eventDate: string }>(
    tx,
    sql`UPDATE bookings b SET status = 'confirmed', confirmed_at = ${at.toISOString()},
          updated_at = ${at.toISOString()},
          release_at = coalesce(${releaseAt?.toISOString() ?? null}::timestamptz, b.release_at)
        WHERE b.id = ${bookingId} AND b.status = 'awaiting_deposit'
          AND b.artist_profile_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM bookings o WHERE o.artist_profile_id = b.artist_profile_id
            AND o.event_date = b.event_date AND o.status IN ('confirmed', 'completed'))
          AND NOT EXISTS (SELECT 1 FROM availability a WHERE a.artist_profile_id = b.artist_profile_id
            AND a.date = b.event_date AND a.status = 'unavailable')
        RETURNING b.artist_profile_id AS "artistProfileId", b.event_date::text AS "eventDate"`,
  );
  if (booking) {
    await markDateBooked(tx, booking, "client");
    return "confirmed";
  }
  const cancelled = await tx
    .update(bookings)
    .set({
      status: "cancelled",
      cancelledAt: at,
      cancelReason: "The date was booked by someone else before the deposit arrived.",
      updatedAt: at,
    })
    .where(and(eq(bookings.id, bookingId), eq(bookings.status, "awaiting_deposit")))
    .returning({ id: bookings.id });
  if (cancelled.length > 0) await endAgreement(tx, bookingId, at);
  return "date_taken";
}

/**
 * Runs `write` and turns a lost race for the date (the one-confirmed-booking-per-date index) into
 * a plain refusal for whoever was agreeing.
 */
export async function withDateGuard<T>(who: "artist" | "client", write: () => Promise<T>) {
  try {
    return await write();
  } catch (error) {
    if (!isProblem(error) && isUniqueViolation(error)) {
      refuse(
        "conflict",
        who === "artist"
          ? "You already have a confirmed booking on this date. Decline this request or ask the client for another date."
          : "The artist was booked on this date a moment ago. Ask them for another date.",
        { reason: BOOKING_REFUSALS.dateNotAvailable },
      );
    }
    throw error;
  }
}

/**
 * Accept (pending → confirmed) and mark the date booked, in one transaction: the artist accepts
 * the client's request as offered, which freezes it into the booking's agreement (decision 047).
 * A second booking for a date that is already confirmed loses to the unique index and changes
 * nothing; so does a request for a date the artist has marked unavailable since it came in. A
 * request answered with a quote is accepted by the client instead. `sha256` is the request's hash
 * as the page showed it.
 */
export async function acceptBooking(
  ctx: Ctx,
  actor: SignedInActor,
  bookingId: string,
  shown: { sha256?: string } & RequestOrigin = {},
) {
  const booking = await bookingOf(ctx, actor, bookingId);
  if (!booking.artistProfileId) refuse("not_found", "Booking not found.");
  const notPending = "Only pending booking requests can be accepted.";
  if (booking.withdrawnForId) refuse("conflict", WITHDRAWN_FOR_ANOTHER);
  if (!canRespondToBooking(actor, booking)) refuse("conflict", notPending);
  const artistId = booking.artistProfileId;
  const day = todayOf(booking, ctx.clock.now());
  const at = ctx.clock.now();
  const withdrawn = await withDateGuard("artist", () =>
    ctx.db.transaction(async (tx) => {
      await lockForAgreement(tx, bookingId);
      const offer = await openOfferOf(tx, bookingId, { forUpdate: true });
      if (offer?.kind === "quote") {
        refuse(
          "conflict",
          "You answered this request with a quote: the client accepts it or asks for changes.",
        );
      }
      if (offer && shown.sha256 && shown.sha256 !== offer.sha256) {
        refuse("conflict", "The request changed while you were reading it.", {
          reason: BOOKING_REFUSALS.quoteChanged,
        });
      }
      // Paid through GigLedger, the booking waits for its first payment before it is confirmed.
      const awaitingDeposit = offer ? needsFirstPayment(offer.document, at) : false;
      const updated = await tx
        .update(bookings)
        .set({
          status: awaitingDeposit ? "awaiting_deposit" : "confirmed",
          respondedAt: at,
          confirmedAt: awaitingDeposit ? null : at,
          updatedAt: at,
        })
        .where(and(eq(bookings.id, bookingId), stillPending(day)))
        .returning({ id: bookings.id });
      if (updated.length === 0) refuse("conflict", notPending);
      if (!awaitingDeposit)
        await markDateBooked(
          tx,
          { artistProfileId: artistId, eventDate: booking.eventDate },
          "artist",
        );
      // A request made before terms were kept has no offer, and its booking no agreement.
      if (offer) {
        await recordAcceptance(tx, {
          offerId: offer.id,
          party: "artist",
          userId: actor.id,
          sha256Shown: offer.sha256,
          at,
          ip: shown.ip,
          userAgent: shown.userAgent,
        });
        const agreement = await freezeAgreement(tx, ctx.env, { offerId: offer.id, at });
        await startBookingPayments(tx, { bookingId, agreement: agreement.signed.agreement, at });
      }
      return withdrawOtherRequests(tx, bookingId, at);
    }),
  );
  await notifyClient(ctx, booking, { accepted: true });
  await tellWithdrawn(ctx, withdrawn);
}

/**
 * The artist declines a pending request (→ rejected), with an optional reason the client sees.
 * `input` is the booking's id, or the id and the reason.
 */
export async function declineBooking(
  ctx: Ctx,
  actor: SignedInActor,
  input: string | { bookingId: string; reason?: string | null },
) {
  const { bookingId, reason = null } = typeof input === "string" ? { bookingId: input } : input;
  const booking = await bookingOf(ctx, actor, bookingId);
  const notPending = "Only pending booking requests can be declined.";
  if (!canRespondToBooking(actor, booking)) refuse("conflict", notPending);
  const declineReason = reason?.trim() ? reason.trim().slice(0, 500) : null;
  await ctx.db.transaction(async (tx) => {
    const updated = await tx
      .update(bookings)
      .set({ status: "rejected", declineReason, respondedAt: sql`now()`, updatedAt: new Date() })
      .where(and(eq(bookings.id, bookingId), stillPending(todayOf(booking, ctx.clock.now()))))
      .returning({ id: bookings.id });
    if (updated.length === 0) refuse("conflict", notPending);
    await closeOpenOffer(tx, bookingId, "declined", new Date());
  });
  await notifyClient(ctx, booking, { accepted: false, reason: declineReason });
}

async function notifyClient(
  ctx: Ctx,
  booking: BookingView,
  answer: { accepted: boolean; reason?: string | null },
) {
  if (!booking.clientUserId || booking.clientEmail === "N/A") return;
  await sendQuietly(
    ctx,
    bookingMails.answered(
      booking.clientEmail,
      { clientName: booking.clientName, artistName: booking.artistName },
      booking,
      answer,
      bookingUrl(ctx, booking.id),
    ),
  );
}

/**
 * A booking is cancelled before its date: by the client while pending or confirmed, or by the
 * artist once confirmed, with a reason the client reads (it counts in the artist's
 * cancellations). A booked date opens again, and the other party is told by mail.
 * `input` is the booking's id, or the id and the artist's reason.
 */
export async function cancelBooking(
  ctx: Ctx,
  actor: SignedInActor,
  input: string | { bookingId: string; reason?: string | null },
) {
  const { bookingId, reason = null } = typeof input === "string" ? { bookingId: input } : input;
  const booking = await bookingOf(ctx, actor, bookingId);
  const tooLate = "This booking can no longer be cancelled.";
  const byArtist = isBookingArtist(actor, booking);
  if (byArtist ? !canArtistCancelBooking(actor, booking) : !canCancelBooking(actor, booking)) {
    refuse("conflict", tooLate);
  }
  const cancelReason = byArtist ? (reason?.trim() ?? "") : null;
  if (byArtist && !cancelReason) {
    const message = "Tell the client why you are cancelling.";
    refuse("invalid", message, { fieldErrors: { reason: message } });
  }
  if (cancelReason && cancelReason.length > 500) {
    const message = "Keep the reason to 500 characters or fewer.";
    refuse("invalid", message, { fieldErrors: { reason: message } });
  }
  let at = ctx.clock.now();
  const wasConfirmed = await ctx.db.transaction(async (tx) => {
    // The status as it is now, under the row's lock: an accept may have committed since the read
    // above, and what the mail says (a date freed) follows what was really cancelled.
    const [current] = await tx
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, bookingId))
      .for("update");
    // The cancellation's time is taken under the lock: an acceptance that committed while this
    // waited for it (and froze the agreement then) always comes before it.
    at = ctx.clock.now();
    const updated = await tx
      .update(bookings)
      .set({
        status: "cancelled",
        cancelledAt: sql`now()`,
        cancelledBy: byArtist ? "artist" : "client",
        cancelReason,
        updatedAt: new Date(),
      })
      .where(
        and(
          eq(bookings.id, bookingId),
          byArtist
            ? eq(bookings.status, "confirmed")
            : sql`${bookings.status} IN ('pending', 'awaiting_deposit', 'confirmed')`,
          gt(bookings.eventDate, todayOf(booking, ctx.clock.now())),
        ),
      )
      .returning({ id: bookings.id });
    if (updated.length === 0) refuse("conflict", tooLate);
    await closeOpenOffer(tx, bookingId, "withdrawn", at);
    // What the agreed policy says of a cancellation now: the same function the page showed.
    const agreements = await agreementsOf(tx, bookingId);
    const agreement = agreements.find((a) => a.status === "in_force");
    if (agreement) {
      // Paid through GigLedger, the policy applies to what was really paid, and the refund it
      // gives is made by the payments' commands, written in this transaction.
      const paid =
        agreement.paidThrough === "gigledger" ? await paidPaiseOf(tx, bookingId) : undefined;
      const outcome = cancellationNow(
        agreement.signed.agreement,
        byArtist ? "artist" : "client",
        at,
        agreements.at(-1)?.frozenAt,
        paid,
      );
      await tx.update(bookings).set({ cancelOutcome: outcome }).where(eq(bookings.id, bookingId));
      await endAgreement(tx, bookingId, at);
      if (paid !== undefined)
        await refundOnCancellation(tx, {
          bookingId,
          refundPaise: outcome.refundPaise,
          at,
          reason: byArtist ? "artist_cancelled" : "client_cancelled",
        });
    }
    // A confirmed booking's booked date opens again through a trigger (migration 0011), in every
    // interleaving with an accept.
    return current?.status === "confirmed";
  });
  // The other party hears of it.
  const toArtist = isBookingClient(actor, booking);
  const recipient = toArtist
    ? { email: await emailOf(ctx, booking.artistUserId), name: booking.artistName }
    : { email: booking.clientUserId ? booking.clientEmail : null, name: booking.clientName };
  if (recipient.email && recipient.email !== "N/A") {
    await sendQuietly(
      ctx,
      bookingMails.cancelled(
        recipient.email,
        {
          recipientName: recipient.name,
          cancelledBy: toArtist ? booking.clientName : booking.artistName,
          dateFreed: toArtist && wasConfirmed,
          reason: cancelReason,
          // The client's page offers substitutes after the artist cancelled (its date is ahead).
          substitutes: byArtist ? (await substitutesFor(ctx.db, booking)).length : null,
        },
        booking,
        bookingUrl(ctx, booking.id),
      ),
    );
  }
}

/**
 * The balance of a booking paid through GigLedger was not paid by its due date and the grace
 * after it: the artist cancels it, valued as the client's cancellation at the due date (the
 * client gains nothing by not paying), and what the policy gives back is refunded.
 */
export async function cancelForNonPayment(ctx: Ctx, actor: SignedInActor, bookingId: string) {
  const booking = await bookingOf(ctx, actor, bookingId);
  if (!isBookingArtist(actor, booking) || booking.status !== "confirmed")
    refuse("conflict", "Only the artist can cancel a confirmed booking for non-payment.");
  const at = ctx.clock.now();
  const overdue = await overdueBalanceOf(ctx.db, bookingId, at);
  if (!overdue)
    refuse(
      "conflict",
      "The balance is not overdue: it can be cancelled for non-payment only after its due date and 48 hours' grace.",
    );
  await ctx.db.transaction(async (tx) => {
    await lockBooking(tx, bookingId);
    const agreements = await agreementsOf(tx, bookingId);
    const agreement = agreements.find((a) => a.status === "in_force");
    if (!agreement) refuse("conflict", "This booking has no agreement in force.");
    const paid = await paidPaiseOf(tx, bookingId);
    const outcome = cancellationNow(
      agreement.signed.agreement,
      "client",
      overdue.dueAt,
      agreements.at(-1)?.frozenAt,
      paid,
    );
    const updated = await tx
      .update(bookings)
      .set({
        status: "cancelled",
        cancelledAt: at,
        cancelledBy: "client",
        cancelReason: "Cancelled by the artist: the balance was not paid.",
        cancelOutcome: { ...outcome, nonPayment: true },
        updatedAt: at,
      })
      .where(and(eq(bookings.id, bookingId), eq(bookings.status, "confirmed")))
      .returning({ id: bookings.id });
    if (updated.length === 0) refuse("conflict", "This booking can no longer be cancelled.");
    await endAgreement(tx, bookingId, at);
    await refundOnCancellation(tx, {
      bookingId,
      refundPaise: outcome.refundPaise,
      at,
      reason: "non_payment",
    });
    await recordNonPayment(tx, { bookingId, at });
  });
}

/** The artist gives the client until `dueDate` (in the artist's zone) to pay the balance. */
export async function giveMoreTime(
  ctx: Ctx,
  actor: SignedInActor,
  input: { bookingId: string; dueDate: string },
) {
  const booking = await bookingOf(ctx, actor, input.bookingId);
  if (!isBookingArtist(actor, booking) || booking.status !== "confirmed")
    refuse("conflict", "Only the artist can give more time on a confirmed booking.");
  const at = ctx.clock.now();
  if (input.dueDate < todayIn(booking.timeZone, at) || input.dueDate > booking.eventDate) {
    const message = "Choose a date from today up to the event's date.";
    refuse("invalid", message, { fieldErrors: { dueDate: message } });
  }
  if (!(await overdueBalanceOf(ctx.db, input.bookingId, at, { dueOnly: true })))
    refuse("conflict", "Nothing is left to pay on this booking.");
  await ctx.db.transaction((tx) =>
    giveBalanceTime(tx, {
      bookingId: input.bookingId,
      dueAt: zonedDateTimeToUtc(input.dueDate, "00:00", booking.timeZone),
      at,
    }),
  );
}
