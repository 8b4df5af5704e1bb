import { and, desc, eq, gt, gte, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { canBookArtist } from "~/features/artists/artists.policy";
import { busyStatusOn } from "~/features/availability/availability.server";
import { queueCredentialRefresh } from "~/features/verification/credential-queue.server";
import type { Actor, SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { addDays, formatLongDate, todayIn, wallClockIn, zonedDateTimeToUtc } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { isProblem, refuse } from "~/lib/problem";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { type Queryable, queryRows } from "~db/client";
import {
  artistProfiles,
  availability,
  bookings,
  musicSessions,
  profiles,
  userRoles,
  users,
} from "~db/schema";
import { type BookingFacts, bookingMails } from "./booking-mails";
import { BOOKING_REFUSALS, BOOKING_REQUEST_LIMITS } from "./bookings.constants";
import {
  type BookingParties,
  type BookingStatus,
  canArtistCancelBooking,
  canCancelBooking,
  canChooseVenueVisibility,
  canRateBooking,
  canReadBooking,
  canRespondToBooking,
  isBookingArtist,
  isBookingClient,
} from "./bookings.policy";
import type { BookingRequest, Rating } from "./bookings.schema";
import { estimateTotal } from "./pricing";
import { substitutesFor } from "./substitutes.server";

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer">;
type ReadCtx = Pick<AppContext, "db" | "env">;

export type { BookingStatus };

export type BookingView = BookingParties & {
  id: string;
  artistProfileId: string | null;
  artistName: string;
  artistSlug: string | null;
  clientName: string;
  clientEmail: string;
  eventDate: string;
  startTime: string | null;
  durationHours: number;
  venue: string;
  eventType: string;
  eventName: string | null;
  message: string | null;
  totalAmount: number;
  rating: number | null;
  review: string | null;
  /** Whether the client chose to show the venue on the artist's public history (null: not yet). */
  venuePublic: boolean | null;
  /** The artist's reason when they declined, if they gave one. */
  declineReason: string | null;
  /** Who cancelled it (null while not cancelled, or when a request expired unanswered). */
  cancelledBy: "client" | "artist" | null;
  /** The artist's reason when they cancelled a confirmed booking. */
  cancelReason: string | null;
  /** The artist's IANA zone: the event's date and start time are wall-clock times there. */
  timeZone: string;
  createdAt: Date;
};

export { BOOKING_REFUSALS };

// ─── The status as of the artist's today ──────────────────────────────────────────────────────
// Dates and times of a booking are wall-clock values in its artist's zone, so "today" for every
// booking rule is the artist's today (see docs/product.md, Bookings). Once its date has passed, a
// confirmed booking is completed and a pending one is cancelled. The periodic job
// (`autoCompletePastBookings`) writes that down; until it has run, every read computes it, and
// every write that depends on it applies it to the row it changes.

/** The artist's today, per row, in SQL; a booking whose artist is gone uses the app's zone. */
const artistTodaySql = (appZone: string) =>
  sql<string>`(now() AT TIME ZONE coalesce(${artistProfiles.timeZone}, ${appZone}))::date`;

/** A booking's status as of `today` (its artist's today), computed in the query. */
function statusAsOf(today: SQL<string>): SQL<BookingStatus> {
  return sql<BookingStatus>`CASE
    WHEN ${bookings.status} = 'confirmed' AND ${bookings.eventDate} < ${today} THEN 'completed'
    WHEN ${bookings.status} = 'pending' AND ${bookings.eventDate} < ${today} THEN 'cancelled'
    ELSE ${bookings.status} END`;
}

const hasPassed = (day: string) => lt(bookings.eventDate, day);

/**
 * The periodic job: confirmed bookings whose date has passed in their artist's zone become
 * completed, pending ones cancelled. One statement, idempotent; reads already show its result
 * before it runs. `appToday` is today in the app's zone: it settles bookings whose artist is gone
 * and bounds the scan (no zone's today is more than two days after any other's).
 */
export async function autoCompletePastBookings(db: Queryable, appToday: string) {
  const changed = await queryRows<{ status: BookingStatus }>(
    db,
    sql`UPDATE bookings
      SET status = CASE status WHEN 'confirmed' THEN 'completed' ELSE 'cancelled' END,
          updated_at = now()
      WHERE status IN ('pending', 'confirmed')
        AND event_date < ${addDays(appToday, 2)}
        AND event_date < coalesce(
          (SELECT (now() AT TIME ZONE ap.time_zone)::date FROM artist_profiles ap
            WHERE ap.id = bookings.artist_profile_id),
          ${appToday}::date)
      RETURNING status`,
  );
  return {
    completed: changed.filter((r) => r.status === "completed").length,
    cancelled: changed.filter((r) => r.status === "cancelled").length,
  };
}

// ─── Reads (they never write) ──────────────────────────────────────────────────────────────────

const clientUser = alias(users, "client_user");
const clientProfile = alias(profiles, "client_profile");

function viewQuery(db: Queryable, appZone: string) {
  const today = artistTodaySql(appZone);
  return db
    .select({
      id: bookings.id,
      artistProfileId: bookings.artistProfileId,
      artistName: artistProfiles.artistName,
      artistSlug: artistProfiles.slug,
      artistUserId: artistProfiles.userId,
      clientUserId: bookings.clientUserId,
      clientFirst: clientProfile.firstName,
      clientLast: clientProfile.lastName,
      clientEmail: clientUser.email,
      eventDate: bookings.eventDate,
      startTime: bookings.startTime,
      durationHours: bookings.durationHours,
      venue: bookings.venue,
      eventType: bookings.eventType,
      eventName: bookings.eventName,
      message: bookings.message,
      status: statusAsOf(today),
      beforeEventDay: sql<boolean>`${bookings.eventDate} > ${today}`,
      totalAmount: bookings.totalAmount,
      rating: bookings.rating,
      review: bookings.review,
      ratingGiven: bookings.ratingGiven,
      venuePublic: bookings.venuePublic,
      declineReason: bookings.declineReason,
      cancelledBy: bookings.cancelledBy,
      cancelReason: bookings.cancelReason,
      timeZone: sql<string>`coalesce(${artistProfiles.timeZone}, ${appZone})`,
      createdAt: bookings.createdAt,
    })
    .from(bookings)
    .leftJoin(artistProfiles, eq(artistProfiles.id, bookings.artistProfileId))
    .leftJoin(clientUser, eq(clientUser.id, bookings.clientUserId))
    .leftJoin(clientProfile, eq(clientProfile.id, bookings.clientUserId));
}

type Row = Awaited<ReturnType<ReturnType<typeof viewQuery>["execute"]>>[number];

function toView(row: Row): BookingView {
  const deletedClient = row.clientUserId === null;
  const name = [row.clientFirst, row.clientLast].filter(Boolean).join(" ").trim();
  return {
    id: row.id,
    artistProfileId: row.artistProfileId,
    artistName: row.artistName ?? "Deleted user",
    artistSlug: row.artistSlug,
    artistUserId: row.artistUserId,
    clientUserId: row.clientUserId,
    clientName: deletedClient ? "Deleted user" : name || "Client",
    clientEmail: deletedClient ? "N/A" : (row.clientEmail ?? "N/A"),
    eventDate: row.eventDate,
    startTime: row.startTime ? row.startTime.slice(0, 5) : null,
    durationHours: row.durationHours,
    venue: row.venue,
    eventType: row.eventType,
    eventName: row.eventName,
    message: row.message,
    status: row.status,
    beforeEventDay: row.beforeEventDay,
    totalAmount: row.totalAmount,
    rating: row.rating,
    review: row.review,
    ratingGiven: row.ratingGiven,
    venuePublic: row.venuePublic,
    declineReason: row.declineReason,
    cancelledBy: row.cancelledBy,
    cancelReason: row.cancelReason,
    timeZone: row.timeZone,
    createdAt: row.createdAt,
  };
}

/** The bookings made with the actor's artist profile, newest first (none without a profile). */
export async function listArtistBookings(ctx: ReadCtx, actor: Actor): Promise<BookingView[]> {
  if (!actor?.artistProfileId) return [];
  const rows = await viewQuery(ctx.db, ctx.env.timeZone)
    .where(eq(bookings.artistProfileId, actor.artistProfileId))
    .orderBy(desc(bookings.createdAt));
  return rows.map(toView);
}

/** The bookings the actor requested as a client, newest first. */
export async function listClientBookings(ctx: ReadCtx, actor: Actor): Promise<BookingView[]> {
  if (!actor) return [];
  const rows = await viewQuery(ctx.db, ctx.env.timeZone)
    .where(eq(bookings.clientUserId, actor.id))
    .orderBy(desc(bookings.createdAt));
  return rows.map(toView);
}

/** The booking if the actor is one of its parties; null otherwise (also when it does not exist). */
export async function getBooking(
  ctx: ReadCtx,
  actor: Actor,
  bookingId: string,
): Promise<BookingView | null> {
  if (!isUuid(bookingId)) return null;
  const [row] = await viewQuery(ctx.db, ctx.env.timeZone).where(eq(bookings.id, bookingId));
  if (!row) return null;
  const view = toView(row);
  return canReadBooking(actor, view) ? view : null;
}

/** As `getBooking`, for a write: a booking the actor may not see is refused as not found. */
async function bookingOf(ctx: ReadCtx, actor: Actor, bookingId: string) {
  return (await getBooking(ctx, actor, bookingId)) ?? refuse("not_found", "Booking not found.");
}

/**
 * Today in the artist's zone, for the booking form (its earliest date and quick picks). An
 * artist that does not exist has the app's today.
 */
export async function artistTodayFor(
  ctx: ReadCtx,
  _actor: Actor,
  artistId: string,
): Promise<string> {
  const [row] = isUuid(artistId)
    ? await ctx.db
        .select({ timeZone: artistProfiles.timeZone })
        .from(artistProfiles)
        .where(eq(artistProfiles.id, artistId))
    : [];
  return todayIn(row?.timeZone ?? ctx.env.timeZone);
}

// ─── Writes ────────────────────────────────────────────────────────────────────────────────────

const bookingUrl = (ctx: Ctx, id: string) => new URL(`/bookings/${id}`, ctx.env.appUrl).href;

/** A booking mail that fails is logged; the action that caused it still succeeds. */
async function sendQuietly(ctx: Ctx, mail: Parameters<Ctx["mailer"]["send"]>[0]) {
  try {
    await ctx.mailer.send(mail);
  } catch (error) {
    ctx.logger.error(
      { err: error, subject: mail.subject },
      "could not send a booking notification",
    );
  }
}

/** The artist's today for a booking read by `getBooking`. */
const todayOf = (booking: Pick<BookingView, "timeZone">) => todayIn(booking.timeZone);

/** The client's name as the artist sees it in mails ("Client" when the profile has none). */
async function clientNameOf(ctx: ReadCtx, userId: string) {
  const [row] = await ctx.db
    .select({ first: profiles.firstName, last: profiles.lastName, name: users.name })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  return [row?.first, row?.last].filter(Boolean).join(" ").trim() || row?.name || "Client";
}

async function emailOf(ctx: ReadCtx, userId: string | null) {
  if (!userId) return null;
  const [row] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

/**
 * A client's request: every rule checked here, the amount computed here. The date and start time
 * are wall-clock values in the artist's zone, and "today" is the artist's today. The artist gets
 * the request by mail, the client a confirmation.
 */
export async function createBookingRequest(ctx: Ctx, actor: SignedInActor, input: BookingRequest) {
  const [artist] = await ctx.db
    .select({
      id: artistProfiles.id,
      userId: artistProfiles.userId,
      slug: artistProfiles.slug,
      artistName: artistProfiles.artistName,
      hourlyRate: artistProfiles.hourlyRate,
      timeZone: artistProfiles.timeZone,
      email: users.email,
    })
    .from(artistProfiles)
    .innerJoin(users, eq(users.id, artistProfiles.userId))
    .where(eq(artistProfiles.id, input.artistId));
  if (!artist) refuse("not_found", "Artist profile not found.");
  if (!canBookArtist(actor, artist)) refuse("forbidden", "You can't book your own profile.");
  const day = todayIn(artist.timeZone);
  if (input.eventDate < day)
    refuse("invalid", "Please choose today or a later date.", {
      reason: BOOKING_REFUSALS.dateNotAvailable,
    });
  if (
    input.eventDate === day &&
    input.startTime !== null &&
    input.startTime <= wallClockIn(new Date(), artist.timeZone).time
  ) {
    const message = "This start time has already passed today. Please choose a later time.";
    refuse("invalid", message, {
      reason: BOOKING_REFUSALS.startTimePassed,
      fieldErrors: { startTime: message },
    });
  }
  // The one "free on a date" rule, as in discovery's "Available on" (marks, confirmed bookings,
  // imported calendars).
  const busy = await busyStatusOn(ctx, actor, { artistId: artist.id, date: input.eventDate });
  if (busy) {
    refuse("conflict", `This date is ${busy}. Please choose an available date.`, {
      reason: BOOKING_REFUSALS.dateNotAvailable,
    });
  }
  const totalAmount = estimateTotal(input.durationHours, artist.hourlyRate);
  const id = await ctx.db.transaction(async (tx) => {
    // One request at a time per client and artist, so two sent at once can't both be first.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`booking-request:${actor.id}:${artist.id}`}, 0))`,
    );
    const [first] = await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        and(
          eq(bookings.clientUserId, actor.id),
          eq(bookings.artistProfileId, artist.id),
          eq(bookings.eventDate, input.eventDate),
          eq(bookings.status, "pending"),
        ),
      )
      .limit(1);
    if (first) {
      refuse(
        "conflict",
        `You already have a pending request to ${artist.artistName} for ${formatLongDate(input.eventDate)}.`,
        {
          reason: BOOKING_REFUSALS.duplicateRequest,
          fieldErrors: { pendingBookingId: first.id },
        },
      );
    }
    await withinRequestLimits(tx, actor, artist);
    const [created] = await tx
      .insert(bookings)
      .values({
        artistProfileId: artist.id,
        clientUserId: actor.id,
        eventDate: input.eventDate,
        startTime: input.startTime,
        durationHours: input.durationHours,
        venue: input.venue,
        eventType: input.eventType,
        message: input.message,
        status: "pending",
        totalAmount,
      })
      .returning({ id: bookings.id });
    // Sending a first booking request is what makes a user a client.
    await tx.insert(userRoles).values({ userId: actor.id, role: "client" }).onConflictDoNothing();
    return created?.id as string;
  });
  const facts: BookingFacts = { ...input, timeZone: artist.timeZone, totalAmount };
  const url = bookingUrl(ctx, id);
  const clientName = await clientNameOf(ctx, actor.id);
  const clientEmail = await emailOf(ctx, actor.id);
  if (clientEmail) {
    await sendQuietly(
      ctx,
      bookingMails.requestSent(
        clientEmail,
        { clientName, artistName: artist.artistName },
        facts,
        url,
      ),
    );
  }
  await sendQuietly(
    ctx,
    bookingMails.newRequest(
      artist.email,
      { artistName: artist.artistName, clientName, message: input.message },
      facts,
      url,
    ),
  );
  return { id, artistName: artist.artistName, artistSlug: artist.slug };
}

/** "45 minutes", "3 hours": how long until a limit's window ends. */
function waitText(ms: number) {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes <= 60) return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} ${hours === 1 ? "hour" : "hours"}`;
}

/**
 * Counts a request that is about to be stored against the client's limits (decision 038), inside
 * its transaction: a request refused for any reason, by a limit too, rolls its count back, so
 * only stored requests count and a refused one is never stored or mailed.
 */
async function withinRequestLimits(
  tx: Queryable,
  actor: SignedInActor,
  artist: { id: string; artistName: string },
) {
  const { perArtist, perClient } = BOOKING_REQUEST_LIMITS;
  const toArtist = await hitRateLimit(tx, `booking-request:${actor.id}:${artist.id}`, perArtist);
  if (!toArtist.allowed) {
    refuse(
      "rate_limited",
      `You have sent ${artist.artistName} ${perArtist.max} booking requests in the last 24 hours. Please wait for an answer, or send another request in ${waitText(toArtist.retryAfterMs)}.`,
      { reason: BOOKING_REFUSALS.rateLimited },
    );
  }
  const toAnyone = await hitRateLimit(tx, `booking-request:${actor.id}`, perClient);
  if (!toAnyone.allowed) {
    refuse(
      "rate_limited",
      `You have sent ${perClient.max} booking requests in the last hour. Please send the next one in ${waitText(toAnyone.retryAfterMs)}.`,
      { reason: BOOKING_REFUSALS.rateLimited },
    );
  }
}

async function lockBooking(tx: Queryable, bookingId: string) {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM bookings WHERE id = ${bookingId} FOR UPDATE`,
  );
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

/** Completed as of `day`, whether or not the job has written it yet (what a rating needs). */
const completedBy = (day: string) =>
  or(eq(bookings.status, "completed"), and(eq(bookings.status, "confirmed"), hasPassed(day)));

/**
 * Accept (pending → confirmed) and mark the date booked, in one transaction. A second booking for
 * a date that is already confirmed loses to the unique index and changes nothing; so does a
 * request for a date the artist has marked unavailable since it came in (the artist makes the
 * date available again first, or declines).
 */
export async function acceptBooking(ctx: Ctx, actor: SignedInActor, bookingId: string) {
  const booking = await bookingOf(ctx, actor, bookingId);
  if (!booking.artistProfileId) refuse("not_found", "Booking not found.");
  const notPending = "Only pending booking requests can be accepted.";
  if (!canRespondToBooking(actor, booking)) refuse("conflict", notPending);
  const artistId = booking.artistProfileId;
  const day = todayOf(booking);
  try {
    await ctx.db.transaction(async (tx) => {
      await lockBooking(tx, bookingId);
      const updated = await tx
        .update(bookings)
        .set({
          status: "confirmed",
          respondedAt: sql`now()`,
          confirmedAt: sql`now()`,
          updatedAt: new Date(),
        })
        .where(and(eq(bookings.id, bookingId), stillPending(day)))
        .returning({ id: bookings.id });
      if (updated.length === 0) refuse("conflict", notPending);
      const marked = await tx
        .insert(availability)
        .values({ artistProfileId: artistId, date: booking.eventDate, status: "booked" })
        .onConflictDoUpdate({
          target: [availability.artistProfileId, availability.date],
          set: { status: "booked", updatedAt: new Date() },
          setWhere: ne(availability.status, "unavailable"),
        })
        .returning({ id: availability.id });
      if (marked.length === 0) {
        refuse(
          "conflict",
          `You marked ${formatLongDate(booking.eventDate)} as unavailable. Make the date available again in your schedule to accept this request, or decline it.`,
          { reason: BOOKING_REFUSALS.dateMarkedUnavailable },
        );
      }
    });
  } catch (error) {
    if (!isProblem(error) && isUniqueViolation(error)) {
      refuse(
        "conflict",
        "You already have a confirmed booking on this date. Decline this request or ask the client for another date.",
      );
    }
    throw error;
  }
  await notifyClient(ctx, booking, { accepted: true });
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
  const updated = await ctx.db
    .update(bookings)
    .set({ status: "rejected", declineReason, respondedAt: sql`now()`, updatedAt: new Date() })
    .where(and(eq(bookings.id, bookingId), stillPending(todayOf(booking))))
    .returning({ id: bookings.id });
  if (updated.length === 0) refuse("conflict", notPending);
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
  const wasConfirmed = await ctx.db.transaction(async (tx) => {
    // The status as it is now, under the row's lock: an accept may have committed since the read
    // above, and what the mail says (a date freed) follows what was really cancelled.
    const [current] = await tx
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, bookingId))
      .for("update");
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
            : sql`${bookings.status} IN ('pending', 'confirmed')`,
          gt(bookings.eventDate, todayOf(booking)),
        ),
      )
      .returning({ id: bookings.id });
    if (updated.length === 0) refuse("conflict", tooLate);
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
 * The client rates a completed booking once. In one transaction: the rating (which also records
 * the completion when the periodic job has not yet), the artist's mean rating and review count,
 * and a verified performance session logged from the booking.
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
          completedBy(todayOf(booking)),
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
