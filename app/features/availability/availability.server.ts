import { and, asc, eq, gte, lte, type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { formatLongDate, todayIn } from "~/lib/dates";
import { refuse } from "~/lib/problem";
import { queryRows } from "~db/client";
import { artistProfiles, availability } from "~db/schema";
import type { AvailabilityEntry, AvailabilityStatus, BusyStatus } from "./availability";
import { canKeepCalendar } from "./availability.policy";

type Ctx = Pick<AppContext, "db">;

/**
 * An artist's availability between two calendar dates (inclusive), earliest first. Public: the
 * calendar is shown on the artist's profile to anyone, so the actor does not matter.
 */
export async function getAvailability(
  ctx: Pick<AppContext, "db">,
  _actor: Actor,
  input: { artistId: string; from: string; to: string },
): Promise<AvailabilityEntry[]> {
  return ctx.db
    .select({ date: availability.date, status: availability.status, notes: availability.notes })
    .from(availability)
    .where(
      and(
        eq(availability.artistProfileId, input.artistId),
        gte(availability.date, input.from),
        lte(availability.date, input.to),
      ),
    )
    .orderBy(asc(availability.date));
}

/**
 * The actor's own calendar, for a change to a day that has not passed in the artist's own time
 * zone (their today is the calendar's today).
 */
async function calendarOf(ctx: Ctx, actor: Actor, date: string): Promise<string> {
  if (!canKeepCalendar(actor)) refuse("not_found", "Only artists keep a calendar.");
  const [artist] = await ctx.db
    .select({ id: artistProfiles.id, timeZone: artistProfiles.timeZone })
    .from(artistProfiles)
    .where(eq(artistProfiles.id, actor.artistProfileId));
  if (!artist) refuse("not_found", "Only artists keep a calendar.");
  if (date < todayIn(artist.timeZone)) refuse("invalid", "Past dates can't be changed.");
  return artist.id;
}

/**
 * One entry per artist and date: a new status replaces the old one. A day busy in one of the
 * artist's imported calendars can't be marked available: clients would see it green, and the
 * booking rule would still refuse it.
 */
export async function setAvailability(
  ctx: Ctx,
  actor: Actor,
  input: { date: string; status: AvailabilityStatus; notes: string | null },
) {
  const artistProfileId = await calendarOf(ctx, actor, input.date);
  const { date, status, notes } = input;
  if (status === "available") {
    const [imported] = await queryRows<{ busy: boolean }>(
      ctx.db,
      sql`SELECT EXISTS (SELECT 1 FROM imported_busy_days
        WHERE artist_profile_id = ${artistProfileId} AND date = ${date}::date) AS busy`,
    );
    if (imported?.busy)
      refuse(
        "conflict",
        `${formatLongDate(date)} is busy in one of your other calendars, so it can't be marked available. Free it there, or remove that calendar.`,
      );
  }
  await ctx.db
    .insert(availability)
    .values({ artistProfileId, date, status, notes })
    .onConflictDoUpdate({
      target: [availability.artistProfileId, availability.date],
      set: { status, notes, updatedAt: new Date() },
    });
}

/** Removes the day's entry: it shows as having no status again. */
export async function clearAvailability(ctx: Ctx, actor: Actor, input: { date: string }) {
  const artistProfileId = await calendarOf(ctx, actor, input.date);
  await ctx.db
    .delete(availability)
    .where(
      and(eq(availability.artistProfileId, artistProfileId), eq(availability.date, input.date)),
    );
}

// ─── "Free on a date": the one rule ───────────────────────────────────────────────────────────
// An artist is free on a date unless it is marked booked or unavailable, holds a confirmed (or
// completed) booking, or is busy in one of their imported calendars. artist_busy_days holds
// exactly those days, kept by triggers in the same transaction as every change to the sources
// (migration 0007, decision 015). Discovery's "Available on" filter, booking requests ('Date Not
// Available') and the substitutes offered after an artist cancels all use the rule below.

/**
 * SQL condition: the artist (`artist` is an SQL expression for the artist profile's id) is free on
 * `date` (`YYYY-MM-DD`, already validated). One primary-key probe of artist_busy_days. When the
 * query already requires the artist's `location`, pass it: the answer is the same (each busy day
 * carries its artist's location, copied by triggers), but PostgreSQL can then read only that
 * location's busy artists of the day (~1/10 of them) instead of all.
 */
export function freeOnDateSql(artist: SQL, date: string, within?: { location: string }): SQL {
  const inLocation = within ? sql` AND bd.artist_location = ${within.location}` : sql``;
  return sql`NOT EXISTS (SELECT 1 FROM artist_busy_days bd
    WHERE bd.artist_profile_id = ${artist} AND bd.date = ${date}::date${inLocation})`;
}

export type { BusyStatus };

/**
 * The days from `from` to `to` (inclusive) on which the artist is not free, by the rule of
 * `freeOnDateSql`: date → 'booked' (marked so, or holding a confirmed booking) or 'unavailable'
 * (marked so, or busy in an imported calendar, whose events are never shown). Public, like the
 * calendar on the profile.
 */
export async function getBusyDays(
  ctx: Pick<AppContext, "db">,
  _actor: Actor,
  input: { artistId: string; from: string; to: string },
): Promise<Record<string, BusyStatus>> {
  const rows = await queryRows<{ date: string; status: BusyStatus }>(
    ctx.db,
    sql`SELECT bd.date::text AS date,
        CASE WHEN av.status = 'booked' OR EXISTS (SELECT 1 FROM bookings b
            WHERE b.artist_profile_id = bd.artist_profile_id AND b.event_date = bd.date
              AND b.status IN ('confirmed', 'completed'))
          THEN 'booked' ELSE 'unavailable' END AS status
      FROM artist_busy_days bd
      LEFT JOIN availability av ON av.artist_profile_id = bd.artist_profile_id AND av.date = bd.date
      WHERE bd.artist_profile_id = ${input.artistId} AND bd.date BETWEEN ${input.from}::date AND ${input.to}::date
      ORDER BY bd.date`,
  );
  return Object.fromEntries(rows.map((r) => [r.date, r.status]));
}

/** Whether the artist is free on `date` (`freeOnDateSql`), and if not, why. */
export async function busyStatusOn(
  ctx: Pick<AppContext, "db">,
  actor: Actor,
  input: { artistId: string; date: string },
): Promise<BusyStatus | null> {
  const days = await getBusyDays(ctx, actor, {
    artistId: input.artistId,
    from: input.date,
    to: input.date,
  });
  return days[input.date] ?? null;
}
