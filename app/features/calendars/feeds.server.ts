import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, type SQL, sql } from "drizzle-orm";
import { type BookingStatus, canReadBooking } from "~/features/bookings/bookings.policy";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { addDays, todayIn } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import { queryRows } from "~db/client";
import { calendarFeeds } from "~db/schema";
import { FEED_PAST_DAYS, type FeedKind } from "./calendars.constants";
import { canHaveFeed } from "./calendars.policy";
import {
  type BookingEvent,
  feedCalendar,
  singleEventCalendar,
  type UnavailableDay,
} from "./ics.server";

type Ctx = Pick<AppContext, "db" | "env">;

// ─── Tokens ────────────────────────────────────────────────────────────────────────────────────
// A feed's address holds a token derived from the server secret and the feed's random salt
// (HMAC-SHA-256, 256 bits), so the owner can be shown it again; the database stores only the
// token's SHA-256. A leaked database gives no working address; a new salt (Reset link) makes the
// old address unknown at once (decision 016).

const tokenOf = (secret: string, userId: string, kind: FeedKind, salt: string) =>
  createHmac("sha256", secret)
    .update(`calendar-feed:${userId}:${kind}:${salt}`)
    .digest("base64url");

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** A feed token as it appears in an address: 43 base64url characters. */
const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const feedUrl = (ctx: Ctx, token: string) => new URL(`/calendar/${token}.ics`, ctx.env.appUrl).href;

/** The actor's feed address of this kind, or null while they have not created one. */
export async function getFeedUrl(ctx: Ctx, actor: Actor, kind: FeedKind): Promise<string | null> {
  if (!canHaveFeed(actor, kind)) return null;
  const [row] = await ctx.db
    .select({ salt: calendarFeeds.salt, tokenHash: calendarFeeds.tokenHash })
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.userId, actor.id), eq(calendarFeeds.kind, kind)));
  if (!row) return null;
  const token = tokenOf(ctx.env.authSecret, actor.id, kind, row.salt);
  // A changed server secret makes stored addresses unknown: show none rather than a dead one.
  const stored = Buffer.from(row.tokenHash, "hex");
  const derived = Buffer.from(hashOf(token), "hex");
  if (stored.length !== derived.length || !timingSafeEqual(stored, derived)) return null;
  return feedUrl(ctx, token);
}

/**
 * Creates the actor's feed of this kind, or gives it a new address (the old one answers 404 from
 * now on). Returns the new address.
 */
export async function resetFeed(ctx: Ctx, actor: Actor, kind: FeedKind): Promise<string> {
  if (!canHaveFeed(actor, kind)) refuse("not_found", "Only artists have a schedule feed.");
  const salt = randomBytes(16).toString("base64url");
  const token = tokenOf(ctx.env.authSecret, actor.id, kind, salt);
  const tokenHash = hashOf(token);
  await ctx.db
    .insert(calendarFeeds)
    .values({ userId: actor.id, kind, salt, tokenHash })
    .onConflictDoUpdate({
      target: [calendarFeeds.userId, calendarFeeds.kind],
      set: { salt, tokenHash, createdAt: new Date() },
    });
  return feedUrl(ctx, token);
}

// ─── Events ────────────────────────────────────────────────────────────────────────────────────

type EventRow = {
  id: string;
  status: BookingStatus;
  calendar_sequence: number;
  updated_at: Date | string;
  event_date: string;
  start_time: string | null;
  duration_hours: string | number;
  time_zone: string;
  event_type: string;
  event_name: string | null;
  venue: string;
  artist_name: string | null;
  client_first: string | null;
  client_last: string | null;
  artist_user_id: string | null;
  client_user_id: string | null;
  before_event_day: boolean;
  rating_given: boolean;
};

/** Bookings with their status as of their artist's today (as every read shows them). */
async function bookingRows(ctx: Ctx, where: SQL): Promise<EventRow[]> {
  const today = sql`(now() AT TIME ZONE coalesce(ap.time_zone, ${ctx.env.timeZone}))::date`;
  return queryRows<EventRow>(
    ctx.db,
    sql`SELECT b.id,
        CASE WHEN b.status = 'confirmed' AND b.event_date < ${today} THEN 'completed'
             WHEN b.status = 'pending' AND b.event_date < ${today} THEN 'cancelled'
             ELSE b.status END AS status,
        b.calendar_sequence, b.updated_at, b.event_date::text AS event_date,
        to_char(b.start_time, 'HH24:MI') AS start_time, b.duration_hours,
        coalesce(ap.time_zone, ${ctx.env.timeZone}) AS time_zone, b.event_type, b.event_name,
        b.venue, ap.artist_name, cp.first_name AS client_first, cp.last_name AS client_last,
        ap.user_id AS artist_user_id, b.client_user_id, b.event_date > ${today} AS before_event_day,
        b.rating_given
      FROM bookings b
      LEFT JOIN artist_profiles ap ON ap.id = b.artist_profile_id
      LEFT JOIN profiles cp ON cp.id = b.client_user_id
      WHERE ${where}
      ORDER BY b.event_date, b.id`,
  );
}

function toEvent(ctx: Ctx, row: EventRow, viewer: "artist" | "client"): BookingEvent {
  const what = row.event_name || row.event_type;
  const client = [row.client_first, row.client_last].filter(Boolean).join(" ") || "Client";
  const summary =
    viewer === "artist"
      ? `${what} for ${row.client_user_id ? client : "Deleted user"}`
      : `${row.artist_name ?? "Deleted user"}: ${what}`;
  return {
    id: row.id,
    status: row.status,
    sequence: row.calendar_sequence,
    updatedAt: new Date(row.updated_at),
    eventDate: row.event_date,
    startTime: row.start_time,
    durationHours: Number(row.duration_hours),
    timeZone: row.time_zone,
    summary,
    venue: row.venue,
    url: new URL(`/bookings/${row.id}`, ctx.env.appUrl).href,
  };
}

/**
 * The feed behind an address: the artist's schedule (their bookings, and days marked
 * unavailable as busy all-day events) or the client's bookings, from FEED_PAST_DAYS ago on.
 * Null for an unknown token, so the address answers 404. No actor: the token is the key.
 */
export async function renderFeed(ctx: Ctx, token: string): Promise<string | null> {
  if (!FEED_TOKEN.test(token)) return null;
  const [feed] = await ctx.db
    .select({ userId: calendarFeeds.userId, kind: calendarFeeds.kind })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, hashOf(token)));
  if (!feed) return null;
  const since = addDays(todayIn(ctx.env.timeZone), -FEED_PAST_DAYS);
  if (feed.kind === "client") {
    const rows = await bookingRows(
      ctx,
      sql`b.client_user_id = ${feed.userId} AND b.event_date >= ${since}::date`,
    );
    return feedCalendar({
      name: "GigLedger bookings",
      bookings: rows.map((r) => toEvent(ctx, r, "client")),
      unavailable: [],
    });
  }
  const [artist] = await queryRows<{ id: string; artist_name: string }>(
    ctx.db,
    sql`SELECT id, artist_name FROM artist_profiles WHERE user_id = ${feed.userId}`,
  );
  if (!artist) return null;
  const [rows, days] = await Promise.all([
    bookingRows(ctx, sql`b.artist_profile_id = ${artist.id} AND b.event_date >= ${since}::date`),
    queryRows<{ date: string; updated_at: Date | string }>(
      ctx.db,
      sql`SELECT date::text AS date, updated_at FROM availability
        WHERE artist_profile_id = ${artist.id} AND status = 'unavailable' AND date >= ${since}::date
        ORDER BY date`,
    ),
  ]);
  const unavailable: UnavailableDay[] = days.map((d) => ({
    artistId: artist.id,
    date: d.date,
    updatedAt: new Date(d.updated_at),
  }));
  return feedCalendar({
    name: `${artist.artist_name}: GigLedger schedule`,
    bookings: rows.map((r) => toEvent(ctx, r, "artist")),
    unavailable,
  });
}

/**
 * One booking as an .ics file ('Add to calendar'), for either of its parties; null (404) for
 * anyone else, exactly as for a booking that does not exist.
 */
export async function bookingIcs(ctx: Ctx, actor: Actor, bookingId: string) {
  if (!isUuid(bookingId)) return null;
  const [row] = await bookingRows(ctx, sql`b.id = ${bookingId}`);
  if (!row) return null;
  const parties = {
    status: row.status,
    beforeEventDay: row.before_event_day,
    ratingGiven: row.rating_given,
    clientUserId: row.client_user_id,
    artistUserId: row.artist_user_id,
  };
  if (!canReadBooking(actor, parties)) return null;
  const viewer = actor?.id === row.artist_user_id ? "artist" : "client";
  return singleEventCalendar(toEvent(ctx, row, viewer));
}
