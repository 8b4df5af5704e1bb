import { and, eq, lt, or, sql } from "drizzle-orm";
import { queueCredentialRefresh } from "~/features/verification/credential-queue.server";
import type { SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { zonedDateTimeToUtc } from "~/lib/dates";
import { refuse } from "~/lib/problem";
import { artistProfiles, bookings, musicSessions } from "~db/schema";
import { type BookingView, bookingOf, getBooking, todayOf } from "./booking-views.server";
import { RATING_LINK_EXPIRED, RATING_LINK_INVALID } from "./bookings.constants";
import { canChooseVenueVisibility, canRateBooking } from "./bookings.policy";
import type { Rating } from "./bookings.schema";
import { lockBooking } from "./bookings.server";
import { readRatingLink } from "./rating-links.server";
import { queueRatedMail } from "./rating-mails.server";

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer"> &
  Partial<Pick<AppContext, "clock">>;

/** Its date has passed as of `day` (the artist's today). */
const hasPassed = (day: string) => lt(bookings.eventDate, day);

/** Completed as of `day`, whether or not the job has written it yet (what a rating needs). */
const completedBy = (day: string) =>
  or(eq(bookings.status, "completed"), and(eq(bookings.status, "confirmed"), hasPassed(day)));

/**
 * The client rates a completed booking once. In one transaction: the rating (which also records
 * the completion when the periodic job has not yet), the artist's mean rating and review count,
 * a verified performance session logged from the booking, and the artist's mail saying so.
 */
export async function rateBooking(
  ctx: Ctx,
  actor: SignedInActor,
  input: Omit<Rating, "showVenue"> & { bookingId: string; showVenue?: boolean },
) {
  // Off unless the client ticks it (docs/product.md, "Ratings").
  const { bookingId, rating, review, showVenue = false } = input;
  const booking = await bookingOf(ctx, actor, bookingId);
  const notRatable = "Only completed bookings can be rated, once.";
  if (!canRateBooking(actor, booking)) refuse("conflict", notRatable);
  if (!booking.artistProfileId) refuse("gone", "This artist's account no longer exists.");
  const artistId = booking.artistProfileId;
  await ctx.db.transaction(async (tx) => {
    await lockBooking(tx, bookingId);
    const updated = await tx
      .update(bookings)
      .set({ status: "completed", rating, review, ratingGiven: true, updatedAt: new Date() })
      .where(
        and(
          eq(bookings.id, bookingId),
          completedBy(todayOf(booking, ctx.clock?.now())),
          eq(bookings.ratingGiven, false),
        ),
      )
      .returning({ id: bookings.id });
    if (updated.length === 0) refuse("conflict", notRatable);
    await tx.execute(sql`
      UPDATE artist_profiles SET
        rating = coalesce((SELECT round(avg(rating)::numeric, 2) FROM bookings WHERE artist_profile_id = ${artistId} AND rating IS NOT NULL), 0),
        total_reviews = (SELECT count(*)::int FROM bookings WHERE artist_profile_id = ${artistId} AND rating IS NOT NULL),
        updated_at = now()
      WHERE id = ${artistId}
    `);
    const [artist] = await tx
      .select({ location: artistProfiles.location })
      .from(artistProfiles)
      .where(eq(artistProfiles.id, artistId));
    const city = artist?.location ?? "";
    await tx.update(bookings).set({ venuePublic: showVenue }).where(eq(bookings.id, bookingId));
    const [session] = await tx
      .insert(musicSessions)
      .values({
        artistProfileId: artistId,
        ...publicGigFields(booking, city, showVenue),
        location: city || null,
        sessionType: "performance",
        startTime: zonedDateTimeToUtc(
          booking.eventDate,
          booking.startTime ?? "12:00",
          booking.timeZone,
        ),
        durationMinutes: Math.round(booking.durationHours * 60),
        isVerified: true,
        verificationMethod: "client_booking",
        bookingId,
      })
      .returning({ id: musicSessions.id });
    if (session) await queueCredentialRefresh(tx, session.id);
    await queueRatedMail(tx, bookingId);
  });
}

/**
 * What the artist's public history shows of a gig booked here: with the client's consent its
 * venue ("{event type} at {venue}"), otherwise only "{event type}, {city}", the city being the
 * artist's location when it was rated (docs/product.md, "Ratings"; decision 017). The venue itself
 * then stays on the booking, which only its two parties see.
 */
function publicGigFields(
  gig: { eventType: string; venue: string },
  city: string,
  showVenue: boolean,
): { title: string; venue: string | null } {
  return showVenue
    ? { title: `${gig.eventType} at ${gig.venue}`, venue: gig.venue }
    : { title: city ? `${gig.eventType}, ${city}` : gig.eventType, venue: null };
}

/**
 * The client of a rated booking shows or hides its venue on the artist's public history (the
 * session logged from it). A title the artist rewrote since is left as it is.
 */
export async function setVenueVisibility(
  ctx: Ctx,
  actor: SignedInActor,
  input: { bookingId: string; showVenue: boolean },
) {
  const booking = await bookingOf(ctx, actor, input.bookingId);
  if (!canChooseVenueVisibility(actor, booking))
    refuse("conflict", "Only the client of a rated booking can choose this.");
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(bookings)
      .set({ venuePublic: input.showVenue, updatedAt: new Date() })
      .where(eq(bookings.id, booking.id));
    const [session] = await tx
      .select({
        id: musicSessions.id,
        title: musicSessions.title,
        location: musicSessions.location,
      })
      .from(musicSessions)
      .where(eq(musicSessions.bookingId, booking.id))
      .for("update");
    if (!session) return;
    const city = session.location ?? "";
    const before = publicGigFields(booking, city, !input.showVenue);
    const after = publicGigFields(booking, city, input.showVenue);
    await tx
      .update(musicSessions)
      .set({
        venue: after.venue,
        title: session.title === before.title ? after.title : session.title,
        updatedAt: new Date(),
      })
      .where(eq(musicSessions.id, session.id));
    // What the session's credential claims follows the public record.
    await queueCredentialRefresh(tx, session.id);
  });
}

// ─── Rating from a mail's one-click link (rating-links.server.ts, decision 044) ───────────────

/** What the rating page shows of the booking: the event, never its parties' contact details. */
export type RatedBookingSummary = Pick<
  BookingView,
  | "id"
  | "artistName"
  | "eventDate"
  | "startTime"
  | "timeZone"
  | "durationHours"
  | "venue"
  | "eventType"
  | "rating"
  | "review"
>;

export type RatingByLink =
  | { state: "invalid" }
  | { state: "expired"; bookingId: string }
  | { state: "ready" | "rated"; booking: RatedBookingSummary };

/**
 * The booking a rating link stands for, as its client sees it: ready to rate, or already rated.
 * A link that is not ours, or whose booking its client can no longer rate, is invalid.
 */
export async function getRatingByLink(
  ctx: Pick<AppContext, "db" | "env">,
  token: string,
): Promise<RatingByLink> {
  const link = await readRatingLink(ctx, token);
  if (link.state !== "valid") return link;
  const booking = await getBooking(ctx, link.client, link.bookingId);
  if (!booking?.artistProfileId) return { state: "invalid" };
  const summary: RatedBookingSummary = {
    id: booking.id,
    artistName: booking.artistName,
    eventDate: booking.eventDate,
    startTime: booking.startTime,
    timeZone: booking.timeZone,
    durationHours: booking.durationHours,
    venue: booking.venue,
    eventType: booking.eventType,
    rating: booking.rating,
    review: booking.review,
  };
  if (booking.ratingGiven) return { state: "rated", booking: summary };
  return canRateBooking(link.client, booking)
    ? { state: "ready", booking: summary }
    : { state: "invalid" };
}

/**
 * Rates the link's booking as its client, whoever is signed in: the link is the client's
 * authority for this one rating, and the rules are `rateBooking`'s (completed, once).
 */
export async function rateBookingByLink(
  ctx: Ctx,
  input: Omit<Rating, "showVenue"> & { token: string; showVenue?: boolean },
) {
  const { token, ...rating } = input;
  const link = await readRatingLink(ctx, token);
  if (link.state === "invalid") refuse("not_found", RATING_LINK_INVALID);
  if (link.state === "expired") refuse("gone", RATING_LINK_EXPIRED);
  await rateBooking(ctx, link.client, { ...rating, bookingId: link.bookingId });
}
