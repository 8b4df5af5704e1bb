import { and, desc, eq, gt, gte, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { canBookArtist } from "~/features/artists/artists.policy";
import type { Actor, SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { formatLongDate, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { isProblem, refuse } from "~/lib/problem";
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
import { bookingMails } from "./booking-mails";
import {
  type BookingParties,
  type BookingStatus,
  canCancelBooking,
  canRateBooking,
  canReadBooking,
  canRespondToBooking,
} from "./bookings.policy";
import type { BookingRequest, Rating } from "./bookings.schema";
import { estimateTotal } from "./pricing";

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
  createdAt: Date;
};

/** Reasons the UI may branch on (never on a message's text). */
export const BOOKING_REFUSALS = {
  /** The chosen date is in the past, booked or unavailable. */
  dateNotAvailable: "date_not_available",
  /** The artist marked the date unavailable after the request came in. */
  dateMarkedUnavailable: "date_marked_unavailable",
} as const;

const today = (ctx: Pick<AppContext, "env">) => todayIn(ctx.env.timeZone);

// ─── The status as of today ────────────────────────────────────────────────────────────────────
// Once its date has passed, a confirmed booking is completed and a pending one is cancelled. The
// periodic job (`autoCompletePastBookings`) writes that down; until it has run, every read
// computes it, and every write that depends on it applies it to the row it changes.

const hasPassed = (day: string) => lt(bookings.eventDate, day);

/** A booking's status as of `day`, computed in the query. */
function statusAsOf(day: string): SQL<BookingStatus> {
  return sql<BookingStatus>`CASE
    WHEN ${bookings.status} = 'confirmed' AND ${hasPassed(day)} THEN 'completed'
    WHEN ${bookings.status} = 'pending' AND ${hasPassed(day)} THEN 'cancelled'
    ELSE ${bookings.status} END`;
}

/** Still pending as of `day` (what accept and decline change). */
const stillPending = (day: string) =>
  and(eq(bookings.status, "pending"), gte(bookings.eventDate, day));

/** Completed as of `day`, whether or not the job has written it yet (what a rating needs). */
const completedBy = (day: string) =>
  or(eq(bookings.status, "completed"), and(eq(bookings.status, "confirmed"), hasPassed(day)));

/**
 * The periodic job: confirmed bookings whose date has passed become completed, pending ones
 * cancelled. One statement, idempotent; reads already show its result before it runs.
 */
export async function autoCompletePastBookings(db: Queryable, day: string) {
  const changed = await queryRows<{ status: BookingStatus }>(
    db,
    sql`UPDATE bookings
      SET status = CASE status WHEN 'confirmed' THEN 'completed' ELSE 'cancelled' END,
          updated_at = now()
      WHERE status IN ('pending', 'confirmed') AND event_date < ${day}
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

function viewQuery(db: Queryable, day: string) {
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
      status: statusAsOf(day),
      beforeEventDay: sql<boolean>`${bookings.eventDate} > ${day}`,
      totalAmount: bookings.totalAmount,
      rating: bookings.rating,
      review: bookings.review,
      ratingGiven: bookings.ratingGiven,
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
    createdAt: row.createdAt,
  };
}

/** The bookings made with the actor's artist profile, newest first (none without a profile). */
export async function listArtistBookings(ctx: ReadCtx, actor: Actor): Promise<BookingView[]> {
  if (!actor?.artistProfileId) return [];
  const rows = await viewQuery(ctx.db, today(ctx))
    .where(eq(bookings.artistProfileId, actor.artistProfileId))
    .orderBy(desc(bookings.createdAt));
  return rows.map(toView);
}

/** The bookings the actor requested as a client, newest first. */
export async function listClientBookings(ctx: ReadCtx, actor: Actor): Promise<BookingView[]> {
  if (!actor) return [];
  const rows = await viewQuery(ctx.db, today(ctx))
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
  const [row] = await viewQuery(ctx.db, today(ctx)).where(eq(bookings.id, bookingId));
  if (!row) return null;
  const view = toView(row);
  return canReadBooking(actor, view) ? view : null;
}

/** As `getBooking`, for a write: a booking the actor may not see is refused as not found. */
async function bookingOf(ctx: ReadCtx, actor: Actor, bookingId: string) {
  return (await getBooking(ctx, actor, bookingId)) ?? refuse("not_found", "Booking not found.");
}

// ─── Writes ────────────────────────────────────────────────────────────────────────────────────

const bookingUrl = (ctx: Ctx, id: string) => new URL(`/bookings/${id}`, ctx.env.appUrl).href;

async function sendQuietly(ctx: Ctx, send: () => Promise<void>) {
  try {
    await send();
  } catch (error) {
    ctx.logger.error({ err: error }, "could not send a booking notification");
  }
}

/** A client's request: every rule checked here, the amount computed here. */
export async function createBookingRequest(ctx: Ctx, actor: SignedInActor, input: BookingRequest) {
  const [artist] = await ctx.db
    .select({
      id: artistProfiles.id,
      userId: artistProfiles.userId,
      slug: artistProfiles.slug,
      artistName: artistProfiles.artistName,
      hourlyRate: artistProfiles.hourlyRate,
      email: users.email,
    })
    .from(artistProfiles)
    .innerJoin(users, eq(users.id, artistProfiles.userId))
    .where(eq(artistProfiles.id, input.artistId));
  if (!artist) refuse("not_found", "Artist profile not found.");
  if (!canBookArtist(actor, artist)) refuse("forbidden", "You can't book your own profile.");
  if (input.eventDate < today(ctx))
    refuse("invalid", "Please choose today or a later date.", {
      reason: BOOKING_REFUSALS.dateNotAvailable,
    });
  const [day] = await ctx.db
    .select({ status: availability.status })
    .from(availability)
    .where(
      and(eq(availability.artistProfileId, artist.id), eq(availability.date, input.eventDate)),
    );
  if (day && day.status !== "available") {
    refuse("conflict", `This date is ${day.status}. Please choose an available date.`, {
      reason: BOOKING_REFUSALS.dateNotAvailable,
    });
  }
  const [client] = await ctx.db
    .select({ name: users.name })
    .from(users)
    .where(eq(users.id, actor.id));
  const id = await ctx.db.transaction(async (tx) => {
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
        totalAmount: estimateTotal(input.durationHours, artist.hourlyRate),
      })
      .returning({ id: bookings.id });
    // Sending a first booking request is what makes a user a client.
    await tx.insert(userRoles).values({ userId: actor.id, role: "client" }).onConflictDoNothing();
    return created?.id as string;
  });
  await sendQuietly(ctx, () =>
    ctx.mailer.send(
      bookingMails.newRequest(
        artist.email,
        artist.artistName,
        client?.name ?? "",
        formatLongDate(input.eventDate),
        bookingUrl(ctx, id),
      ),
    ),
  );
  return { id, artistName: artist.artistName, artistSlug: artist.slug };
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
  const day = today(ctx);
  try {
    await ctx.db.transaction(async (tx) => {
      await lockBooking(tx, bookingId);
      const updated = await tx
        .update(bookings)
        .set({ status: "confirmed", updatedAt: new Date() })
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
  await notifyClient(ctx, booking, true);
}

export async function declineBooking(ctx: Ctx, actor: SignedInActor, bookingId: string) {
  const booking = await bookingOf(ctx, actor, bookingId);
  const notPending = "Only pending booking requests can be declined.";
  if (!canRespondToBooking(actor, booking)) refuse("conflict", notPending);
  const updated = await ctx.db
    .update(bookings)
    .set({ status: "rejected", updatedAt: new Date() })
    .where(and(eq(bookings.id, bookingId), stillPending(today(ctx))))
    .returning({ id: bookings.id });
  if (updated.length === 0) refuse("conflict", notPending);
  await notifyClient(ctx, booking, false);
}

async function notifyClient(ctx: Ctx, booking: BookingView, accepted: boolean) {
  if (!booking.clientUserId || booking.clientEmail === "N/A") return;
  await sendQuietly(ctx, () =>
    ctx.mailer.send(
      bookingMails.responded(
        booking.clientEmail,
        booking.clientName,
        booking.artistName,
        formatLongDate(booking.eventDate),
        accepted,
        bookingUrl(ctx, booking.id),
      ),
    ),
  );
}

/** The client cancels a pending or confirmed booking before its date; a booked date opens again. */
export async function cancelBooking(ctx: Ctx, actor: SignedInActor, bookingId: string) {
  const booking = await bookingOf(ctx, actor, bookingId);
  const tooLate = "This booking can no longer be cancelled.";
  if (!canCancelBooking(actor, booking)) refuse("conflict", tooLate);
  await ctx.db.transaction(async (tx) => {
    const updated = await tx
      .update(bookings)
      .set({ status: "cancelled", updatedAt: new Date() })
      .where(
        and(
          eq(bookings.id, bookingId),
          sql`${bookings.status} IN ('pending', 'confirmed')`,
          gt(bookings.eventDate, today(ctx)),
        ),
      )
      .returning({ id: bookings.id });
    if (updated.length === 0) refuse("conflict", tooLate);
    if (booking.status === "confirmed" && booking.artistProfileId) {
      await tx
        .update(availability)
        .set({ status: "available", updatedAt: new Date() })
        .where(
          and(
            eq(availability.artistProfileId, booking.artistProfileId),
            eq(availability.date, booking.eventDate),
            eq(availability.status, "booked"),
          ),
        );
    }
  });
}

/**
 * The client rates a completed booking once. In one transaction: the rating (which also records
 * the completion when the periodic job has not yet), the artist's mean rating and review count,
 * and a verified performance session logged from the booking.
 */
export async function rateBooking(
  ctx: Ctx,
  actor: SignedInActor,
  input: Rating & { bookingId: string },
) {
  const { bookingId, rating, review } = input;
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
        and(eq(bookings.id, bookingId), completedBy(today(ctx)), eq(bookings.ratingGiven, false)),
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
    await tx.insert(musicSessions).values({
      artistProfileId: artistId,
      title: `${booking.eventType} at ${booking.venue}`,
      sessionType: "performance",
      startTime: zonedDateTimeToUtc(
        booking.eventDate,
        booking.startTime ?? "12:00",
        ctx.env.timeZone,
      ),
      durationMinutes: Math.round(booking.durationHours * 60),
      venue: booking.venue,
      isVerified: true,
      verificationMethod: "client_booking",
      bookingId,
    });
  });
}
