import { desc, eq, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Actor } from "~/lib/actor";
import type { Clock } from "~/lib/clock.server";
import type { AppContext } from "~/lib/context";
import { todayIn } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import type { Queryable } from "~db/client";
import { artistProfiles, bookings, profiles, users } from "~db/schema";
import { type BookingParties, type BookingStatus, canReadBooking } from "./bookings.policy";

/** A transaction will do too (the rating mails read inside theirs). */
/** `clock` is the app's (decision 054); without one (a script, an old test) real time. */
type ReadCtx = { db: Queryable; env: AppContext["env"]; clock?: Clock };

const nowOf = (ctx: ReadCtx) => ctx.clock?.now() ?? new Date();

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
  /** A quote of the artist's is open: the client has it to answer (decision 047). */
  quoteOpen: boolean;
  /** The client reported an artist no-show not decided against them, on or before the day. */
  noShowReported: boolean;
  /** The request went to several artists at once (decision 060): their bookings share this id. */
  requestGroupId: string | null;
  /** Withdrawn because the client agreed with another artist of the group: that booking's id. */
  withdrawnForId: string | null;
};

// ─── The status as of the artist's today ──────────────────────────────────────────────────────
// Dates and times of a booking are wall-clock values in its artist's zone, so "today" for every
// booking rule is the artist's today (see docs/product.md, Bookings). Once its date has passed, a
// confirmed booking is completed and a pending one is cancelled. The periodic job
// (`autoCompletePastBookings`, bookings.server.ts) writes that down; until it has run, every read
// computes it, and every write that depends on it applies it to the row it changes.

/** The artist's today, per row, in SQL; a booking whose artist is gone uses the app's zone. */
const artistTodaySql = (appZone: string, now: Date) =>
  sql<string>`(${now.toISOString()}::timestamptz AT TIME ZONE coalesce(${artistProfiles.timeZone}, ${appZone}))::date`;

/** A booking's status as of `today` (its artist's today), computed in the query. */
function statusAsOf(today: SQL<string>): SQL<BookingStatus> {
  return sql<BookingStatus>`CASE
    WHEN ${bookings.status} = 'confirmed' AND ${bookings.eventDate} < ${today} THEN 'completed'
    WHEN ${bookings.status} = 'pending' AND ${bookings.eventDate} < ${today} THEN 'cancelled'
    ELSE ${bookings.status} END`;
}

/** The artist's today for a booking read by `getBooking`. */
export const todayOf = (booking: Pick<BookingView, "timeZone">, now: Date = new Date()) =>
  todayIn(booking.timeZone, now);

// ─── Reads (they never write) ──────────────────────────────────────────────────────────────────

const clientUser = alias(users, "client_user");
const clientProfile = alias(profiles, "client_profile");

function viewQuery(db: Queryable, appZone: string, now: Date) {
  const today = artistTodaySql(appZone, now);
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
      requestGroupId: bookings.requestGroupId,
      withdrawnForId: bookings.withdrawnForId,
      quoteOpen: sql<boolean>`EXISTS (SELECT 1 FROM offers o
        WHERE o.booking_id = ${bookings.id} AND o.status = 'open' AND o.kind = 'quote')`,
      // The client reported that the artist did not show up, and it was not decided against them
      // (issue 42): substitutes are offered on the day itself.
      noShowReported: sql<boolean>`(${bookings.eventDate} >= ${today} AND EXISTS (
        SELECT 1 FROM problem_reports p WHERE p.booking_id = ${bookings.id} AND p.party = 'client'
          AND p.category = 'artist_no_show' AND (p.decision IS NULL OR p.decision <> 'release')))`,
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
    quoteOpen: row.quoteOpen === true,
    noShowReported: row.noShowReported === true,
    requestGroupId: row.requestGroupId,
    withdrawnForId: row.withdrawnForId,
  };
}

/** The bookings made with the actor's artist profile, newest first (none without a profile). */
export async function listArtistBookings(ctx: ReadCtx, actor: Actor): Promise<BookingView[]> {
  if (!actor?.artistProfileId) return [];
  const rows = await viewQuery(ctx.db, ctx.env.timeZone, nowOf(ctx))
    .where(eq(bookings.artistProfileId, actor.artistProfileId))
    .orderBy(desc(bookings.createdAt));
  return rows.map(toView);
}

/** The bookings the actor requested as a client, newest first. */
export async function listClientBookings(ctx: ReadCtx, actor: Actor): Promise<BookingView[]> {
  if (!actor) return [];
  const rows = await viewQuery(ctx.db, ctx.env.timeZone, nowOf(ctx))
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
  const [row] = await viewQuery(ctx.db, ctx.env.timeZone, nowOf(ctx)).where(
    eq(bookings.id, bookingId),
  );
  if (!row) return null;
  const view = toView(row);
  return canReadBooking(actor, view) ? view : null;
}

/** As `getBooking`, for a write: a booking the actor may not see is refused as not found. */
export async function bookingOf(ctx: ReadCtx, actor: Actor, bookingId: string) {
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
  return todayIn(row?.timeZone ?? ctx.env.timeZone, nowOf(ctx));
}
