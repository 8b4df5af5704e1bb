import { and, desc, eq, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { AppContext } from "~/lib/context";
import { formatLongDate, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
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
  canCancelBooking,
  canRateBooking,
  canReadBooking,
  canRespondToBooking,
} from "./bookings.policy";
import type { BookingRequest } from "./bookings.schema";
import { estimateTotal } from "./pricing";

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer">;

export type BookingStatus = BookingParties["status"];

export type BookingView = BookingParties & {
  id: string;
  artistProfileId: string | null;
  artistName: string;
  artistSlug: string | null;
  clientName: string;
  clientEmail: string;
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

export class BookingError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly title = "Error",
  ) {
    super(message);
  }
}

const clientUser = alias(users, "client_user");
const clientProfile = alias(profiles, "client_profile");

function viewQuery(db: Queryable) {
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
      status: bookings.status,
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
    totalAmount: row.totalAmount,
    rating: row.rating,
    review: row.review,
    ratingGiven: row.ratingGiven,
    createdAt: row.createdAt,
  };
}

/**
 * Confirmed bookings whose date has passed become completed; pending ones become cancelled.
 * Idempotent: runs before bookings are listed and periodically.
 */
export async function autoCompletePastBookings(db: Queryable, today: string) {
  const completed = await db
    .update(bookings)
    .set({ status: "completed", updatedAt: new Date() })
    .where(and(eq(bookings.status, "confirmed"), lt(bookings.eventDate, today)))
    .returning({ id: bookings.id });
  const cancelled = await db
    .update(bookings)
    .set({ status: "cancelled", updatedAt: new Date() })
    .where(and(eq(bookings.status, "pending"), lt(bookings.eventDate, today)))
    .returning({ id: bookings.id });
  return { completed: completed.length, cancelled: cancelled.length };
}

async function autoCompleteQuietly(ctx: Ctx) {
  try {
    await autoCompletePastBookings(ctx.db, todayIn(ctx.env.timeZone));
  } catch (error) {
    ctx.logger.error({ err: error }, "auto-complete of past bookings failed");
  }
}

export async function listArtistBookings(ctx: Ctx, artistId: string) {
  await autoCompleteQuietly(ctx);
  const rows = await viewQuery(ctx.db)
    .where(eq(bookings.artistProfileId, artistId))
    .orderBy(desc(bookings.createdAt));
  return rows.map(toView);
}

export async function listClientBookings(ctx: Ctx, userId: string) {
  await autoCompleteQuietly(ctx);
  const rows = await viewQuery(ctx.db)
    .where(eq(bookings.clientUserId, userId))
    .orderBy(desc(bookings.createdAt));
  return rows.map(toView);
}

/** The booking if `userId` is its client or its artist; null otherwise (also when it does not exist). */
export async function getBookingForUser(
  ctx: Ctx,
  bookingId: string,
  userId: string,
): Promise<BookingView | null> {
  if (!/^[0-9a-f-]{36}$/i.test(bookingId)) return null;
  await autoCompleteQuietly(ctx);
  const [row] = await viewQuery(ctx.db).where(eq(bookings.id, bookingId));
  if (!row) return null;
  const view = toView(row);
  return canReadBooking(userId, view) ? view : null;
}

const bookingUrl = (ctx: Ctx, id: string) => new URL(`/bookings/${id}`, ctx.env.appUrl).href;

async function sendQuietly(ctx: Ctx, send: () => Promise<void>) {
  try {
    await send();
  } catch (error) {
    ctx.logger.error({ err: error }, "could not send a booking notification");
  }
}

/** A client's request: every rule checked here, the amount computed here. */
export async function createBookingRequest(
  ctx: Ctx,
  user: { id: string; name: string },
  input: BookingRequest,
) {
  const [artist] = await ctx.db
    .select({
      id: artistProfiles.id,
      userId: artistProfiles.userId,
      artistName: artistProfiles.artistName,
      hourlyRate: artistProfiles.hourlyRate,
      email: users.email,
    })
    .from(artistProfiles)
    .innerJoin(users, eq(users.id, artistProfiles.userId))
    .where(eq(artistProfiles.id, input.artistId));
  if (!artist) throw new BookingError("Artist profile not found.", 404);
  if (artist.userId === user.id) throw new BookingError("You can't book your own profile.", 403);
  const today = todayIn(ctx.env.timeZone);
  if (input.eventDate < today)
    throw new BookingError("Please choose today or a later date.", 400, "Date Not Available");
  const [day] = await ctx.db
    .select({ status: availability.status })
    .from(availability)
    .where(
      and(eq(availability.artistProfileId, artist.id), eq(availability.date, input.eventDate)),
    );
  if (day && day.status !== "available") {
    throw new BookingError(
      `This date is ${day.status}. Please choose an available date.`,
      409,
      "Date Not Available",
    );
  }
  const id = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(bookings)
      .values({
        artistProfileId: artist.id,
        clientUserId: user.id,
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
    // The first booking request makes the user a client (decisions.md).
    await tx.insert(userRoles).values({ userId: user.id, role: "client" }).onConflictDoNothing();
    return created?.id as string;
  });
  await sendQuietly(ctx, () =>
    ctx.mailer.send(
      bookingMails.newRequest(
        artist.email,
        artist.artistName,
        user.name,
        formatLongDate(input.eventDate),
        bookingUrl(ctx, id),
      ),
    ),
  );
  return { id, artistName: artist.artistName };
}

async function lockBooking(tx: Queryable, bookingId: string) {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM bookings WHERE id = ${bookingId} FOR UPDATE`,
  );
  return row;
}

const UNIQUE_VIOLATION = "23505";

/**
 * Accept (pending → confirmed) and mark the date booked, in one transaction. A second booking for
 * a date that is already confirmed loses to the unique index and changes nothing.
 */
export async function acceptBooking(ctx: Ctx, userId: string, bookingId: string) {
  const booking = await getBookingForUser(ctx, bookingId, userId);
  if (!booking?.artistProfileId) throw new BookingError("Booking not found.", 404);
  if (!canRespondToBooking(userId, booking))
    throw new BookingError("Only pending booking requests can be accepted.", 409);
  const artistId = booking.artistProfileId;
  try {
    await ctx.db.transaction(async (tx) => {
      await lockBooking(tx, bookingId);
      const updated = await tx
        .update(bookings)
        .set({ status: "confirmed", updatedAt: new Date() })
        .where(and(eq(bookings.id, bookingId), eq(bookings.status, "pending")))
        .returning({ id: bookings.id });
      if (updated.length === 0)
        throw new BookingError("Only pending booking requests can be accepted.", 409);
      await tx
        .insert(availability)
        .values({ artistProfileId: artistId, date: booking.eventDate, status: "booked" })
        .onConflictDoUpdate({
          target: [availability.artistProfileId, availability.date],
          set: { status: "booked", updatedAt: new Date() },
        });
    });
  } catch (error) {
    const code =
      (error as { cause?: { code?: string }; code?: string }).cause?.code ??
      (error as { code?: string }).code;
    if (code === UNIQUE_VIOLATION) {
      throw new BookingError(
        "You already have a confirmed booking on this date. Decline this request or ask the client for another date.",
        409,
      );
    }
    throw error;
  }
  await notifyClient(ctx, booking, true);
}

export async function declineBooking(ctx: Ctx, userId: string, bookingId: string) {
  const booking = await getBookingForUser(ctx, bookingId, userId);
  if (!booking) throw new BookingError("Booking not found.", 404);
  if (!canRespondToBooking(userId, booking))
    throw new BookingError("Only pending booking requests can be declined.", 409);
  const updated = await ctx.db
    .update(bookings)
    .set({ status: "rejected", updatedAt: new Date() })
    .where(and(eq(bookings.id, bookingId), eq(bookings.status, "pending")))
    .returning({ id: bookings.id });
  if (updated.length === 0)
    throw new BookingError("Only pending booking requests can be declined.", 409);
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
export async function cancelBooking(ctx: Ctx, userId: string, bookingId: string) {
  const booking = await getBookingForUser(ctx, bookingId, userId);
  if (!booking) throw new BookingError("Booking not found.", 404);
  const today = todayIn(ctx.env.timeZone);
  if (!canCancelBooking(userId, booking, today))
    throw new BookingError("This booking can no longer be cancelled.", 409);
  await ctx.db.transaction(async (tx) => {
    const updated = await tx
      .update(bookings)
      .set({ status: "cancelled", updatedAt: new Date() })
      .where(and(eq(bookings.id, bookingId), sql`${bookings.status} IN ('pending', 'confirmed')`))
      .returning({ id: bookings.id });
    if (updated.length === 0)
      throw new BookingError("This booking can no longer be cancelled.", 409);
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
 * The client rates a completed booking once. In one transaction: the rating, the artist's mean
 * rating and review count, and a verified performance session logged from the booking.
 */
export async function rateBooking(
  ctx: Ctx,
  userId: string,
  bookingId: string,
  rating: number,
  review: string | null,
) {
  const booking = await getBookingForUser(ctx, bookingId, userId);
  if (!booking) throw new BookingError("Booking not found.", 404);
  if (!canRateBooking(userId, booking))
    throw new BookingError("Only completed bookings can be rated, once.", 409);
  if (!booking.artistProfileId)
    throw new BookingError("This artist's account no longer exists.", 410);
  const artistId = booking.artistProfileId;
  await ctx.db.transaction(async (tx) => {
    await lockBooking(tx, bookingId);
    const updated = await tx
      .update(bookings)
      .set({ rating, review, ratingGiven: true, updatedAt: new Date() })
      .where(
        and(
          eq(bookings.id, bookingId),
          eq(bookings.status, "completed"),
          eq(bookings.ratingGiven, false),
        ),
      )
      .returning({ id: bookings.id });
    if (updated.length === 0)
      throw new BookingError("Only completed bookings can be rated, once.", 409);
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
