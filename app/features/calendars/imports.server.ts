import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { addDays, todayIn } from "~/lib/dates";
import { refuse } from "~/lib/problem";
import { FetchRefused, type SafeFetchOptions, safeFetchText } from "~/lib/safe-fetch.server";
import { type Queryable, queryRows } from "~db/client";
import { artistProfiles, externalCalendars, importedBusyDays } from "~db/schema";
import { busyDaysIn, NotACalendar } from "./busy-days";
import {
  IMPORT_HORIZON_DAYS,
  MAX_CALENDARS_PER_ARTIST,
  SYNC_EVERY_MINUTES,
} from "./calendars.constants";
import { canImportCalendars } from "./calendars.policy";

type Ctx = Pick<AppContext, "db" | "env" | "logger">;

/** Tests may shorten the limits; the app uses the defaults (decision 016). */
export type SyncOptions = Partial<Omit<SafeFetchOptions, "allowLoopback">>;

export type ImportedCalendar = {
  id: string;
  /** Only the host is shown: the rest of the address is the calendar's secret. */
  host: string;
  lastSyncedAt: Date | null;
  lastError: string | null;
  busyDays: number;
};

const NOT_FOUND = "Calendar not found.";
const UNEXPECTED = "The calendar could not be read. GigLedger will try again in 15 minutes.";

/** The artist's imported calendars, oldest first. */
export async function listImportedCalendars(ctx: Ctx, actor: Actor): Promise<ImportedCalendar[]> {
  if (!canImportCalendars(actor)) return [];
  const rows = await ctx.db
    .select({
      id: externalCalendars.id,
      url: externalCalendars.url,
      lastSyncedAt: externalCalendars.lastSyncedAt,
      lastError: externalCalendars.lastError,
      busyDays: sql<number>`(SELECT count(*)::int FROM imported_busy_days i WHERE i.calendar_id = ${externalCalendars.id})`,
    })
    .from(externalCalendars)
    .where(eq(externalCalendars.artistProfileId, actor.artistProfileId))
    .orderBy(asc(externalCalendars.createdAt), asc(externalCalendars.id));
  return rows.map(({ url, ...r }) => ({ ...r, host: new URL(url).host }));
}

/**
 * Adds a calendar address to the actor's profile and reads it at once (the answer says whether
 * that worked). A calendar that fails to read is kept, with its error shown, and tried again.
 */
export async function addImportedCalendar(
  ctx: Ctx,
  actor: Actor,
  input: { url: string },
  options: SyncOptions = {},
) {
  if (!canImportCalendars(actor)) refuse("not_found", "Only artists can add calendars.");
  const [{ n } = { n: 0 }] = await ctx.db
    .select({ n: count() })
    .from(externalCalendars)
    .where(eq(externalCalendars.artistProfileId, actor.artistProfileId));
  if (n >= MAX_CALENDARS_PER_ARTIST)
    refuse("conflict", `You can add at most ${MAX_CALENDARS_PER_ARTIST} calendars.`);
  const [added] = await ctx.db
    .insert(externalCalendars)
    .values({ artistProfileId: actor.artistProfileId, url: input.url })
    .onConflictDoNothing()
    .returning({ id: externalCalendars.id });
  if (!added) refuse("conflict", "This calendar is already added.");
  return syncImportedCalendar(ctx, actor, { calendarId: added.id }, options);
}

/** Removes one of the actor's calendars; its busy days go with it (the days are free again). */
export async function removeImportedCalendar(
  ctx: Ctx,
  actor: Actor,
  input: { calendarId: string },
) {
  if (!canImportCalendars(actor)) refuse("not_found", NOT_FOUND);
  const removed = await ctx.db
    .delete(externalCalendars)
    .where(
      and(
        eq(externalCalendars.id, input.calendarId),
        eq(externalCalendars.artistProfileId, actor.artistProfileId),
      ),
    )
    .returning({ id: externalCalendars.id });
  if (removed.length === 0) refuse("not_found", NOT_FOUND);
}

/** 'Sync now': reads one of the actor's calendars. */
export async function syncImportedCalendar(
  ctx: Ctx,
  actor: Actor,
  input: { calendarId: string },
  options: SyncOptions = {},
): Promise<{ ok: true; busyDays: number } | { ok: false; error: string }> {
  if (!canImportCalendars(actor)) refuse("not_found", NOT_FOUND);
  const [calendar] = await ctx.db
    .select({ id: externalCalendars.id, url: externalCalendars.url })
    .from(externalCalendars)
    .where(
      and(
        eq(externalCalendars.id, input.calendarId),
        eq(externalCalendars.artistProfileId, actor.artistProfileId),
      ),
    );
  if (!calendar) refuse("not_found", NOT_FOUND);
  await ctx.db
    .update(externalCalendars)
    .set({ syncStartedAt: sql`now()` })
    .where(eq(externalCalendars.id, calendar.id));
  return readCalendar(ctx, calendar.id, calendar.url, options);
}

/**
 * Reads one calendar and replaces its busy days with what it says now, in one transaction (the
 * artist's free days follow through the busy-day triggers). On failure the last busy days stay,
 * so a calendar that cannot be read for a while does not open days its owner is busy on.
 */
async function readCalendar(
  ctx: Ctx,
  calendarId: string,
  url: string,
  options: SyncOptions,
): Promise<{ ok: true; busyDays: number } | { ok: false; error: string }> {
  try {
    const text = await safeFetchText(url, { ...options, allowLoopback: !ctx.env.isPublic });
    const [owner] = await ctx.db
      .select({ id: artistProfiles.id, timeZone: artistProfiles.timeZone })
      .from(externalCalendars)
      .innerJoin(artistProfiles, eq(artistProfiles.id, externalCalendars.artistProfileId))
      .where(eq(externalCalendars.id, calendarId));
    if (!owner) return { ok: false, error: NOT_FOUND };
    const from = todayIn(owner.timeZone);
    const dates = busyDaysIn(text, {
      from,
      to: addDays(from, IMPORT_HORIZON_DAYS),
      timeZone: owner.timeZone,
    });
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`
        DELETE FROM imported_busy_days
        WHERE calendar_id = ${calendarId}
          AND NOT (date = ANY(${`{${dates.join(",")}}`}::date[]))`);
      if (dates.length > 0) {
        await tx
          .insert(importedBusyDays)
          .values(dates.map((date) => ({ calendarId, artistProfileId: owner.id, date })))
          .onConflictDoNothing();
      }
      await tx
        .update(externalCalendars)
        .set({ lastSyncedAt: sql`now()`, lastError: null })
        .where(eq(externalCalendars.id, calendarId));
    });
    return { ok: true, busyDays: dates.length };
  } catch (error) {
    const known = error instanceof FetchRefused || error instanceof NotACalendar;
    if (!known) ctx.logger.error({ err: error, calendarId }, "calendar sync failed");
    const message = known ? (error as Error).message : UNEXPECTED;
    await ctx.db
      .update(externalCalendars)
      .set({ lastError: message })
      .where(eq(externalCalendars.id, calendarId));
    return { ok: false, error: message };
  }
}

/**
 * The periodic job's first half, under its lock: claims the calendars not read for
 * SYNC_EVERY_MINUTES (at most `limit`), so that no other instance reads them this round.
 */
export async function claimDueCalendars(tx: Queryable, limit = 100) {
  return queryRows<{ id: string; url: string }>(
    tx,
    sql`UPDATE external_calendars SET sync_started_at = now()
      WHERE id IN (
        SELECT id FROM external_calendars
        WHERE sync_started_at IS NULL
           OR sync_started_at < now() - make_interval(mins => ${SYNC_EVERY_MINUTES})
        ORDER BY sync_started_at NULLS FIRST
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, url`,
  );
}

/** Its second half, outside any transaction: reads each claimed calendar in turn. */
export async function readClaimedCalendars(
  ctx: Ctx,
  claimed: { id: string; url: string }[],
  options: SyncOptions = {},
) {
  let failed = 0;
  for (const calendar of claimed) {
    const result = await readCalendar(ctx, calendar.id, calendar.url, options);
    if (!result.ok) failed++;
  }
  return { read: claimed.length, failed };
}
