import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { addDays, todayIn } from "~/lib/dates";
import { IsolatedWorkFailed, type IsolationLimits, runIsolated } from "~/lib/isolated.server";
import { enqueueJob, type QueueHandler } from "~/lib/jobs.server";
import { refuse } from "~/lib/problem";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { FetchRefused, type SafeFetchOptions, safeFetchText } from "~/lib/safe-fetch.server";
import { type Queryable, queryRows } from "~db/client";
import { artistProfiles, externalCalendars, importedBusyDays } from "~db/schema";
import { NotACalendar } from "./busy-days";
import type { BusyDaysInput, BusyDaysOutput } from "./busy-days.worker";
import {
  IMPORT_HORIZON_DAYS,
  MAX_CALENDARS_PER_ARTIST,
  READ_LIMITS,
  SYNC_EVERY_MINUTES,
  SYNC_NOW_LIMIT,
  SYNC_NOW_MIN_INTERVAL_MS,
} from "./calendars.constants";
import { canImportCalendars } from "./calendars.policy";

type Ctx = Pick<AppContext, "db" | "env" | "logger">;

/** Tests may shorten the limits; the app uses the defaults (decisions 016 and 041). */
export type SyncOptions = Partial<Omit<SafeFetchOptions, "allowLoopback">> & {
  readLimits?: Partial<IsolationLimits>;
  minIntervalMs?: number;
};

export type CalendarStopReason = NonNullable<(typeof externalCalendars.$inferSelect)["stopReason"]>;

export type ImportedCalendar = {
  id: string;
  /** Only the host is shown: the rest of the address is the calendar's secret. */
  host: string;
  lastSyncedAt: Date | null;
  lastError: string | null;
  /** Set when the background sync leaves it alone (see `readCalendar`). */
  stoppedAt: Date | null;
  busyDays: number;
};

const NOT_FOUND = "Calendar not found.";
const TOO_MANY = `You can add at most ${MAX_CALENDARS_PER_ARTIST} calendars.`;

/** The limit trigger's refusal (migration 0012), as the driver reports it. */
function isOverLimit(error: unknown) {
  const e =
    (error as { cause?: { code?: string; constraint?: string } }).cause ??
    (error as { code?: string; constraint?: string });
  return e?.code === "23514" && e.constraint === "external_calendars_limit";
}
const UNEXPECTED = "The calendar could not be read. GigLedger will try again in 15 minutes.";
const BUSY = "GigLedger is reading many calendars right now. It will try again in 15 minutes.";
/** Why a calendar is no longer read by itself (decision 041), in the artist's words. */
const STOPPED: Record<CalendarStopReason, string> = {
  timeout: `This calendar took longer to read than GigLedger allows (${READ_LIMITS.timeoutMs / 1000} seconds), so it is no longer read every ${SYNC_EVERY_MINUTES} minutes.`,
  memory: `This calendar needed more memory to read than GigLedger allows (${READ_LIMITS.memoryMb} MB), so it is no longer read every ${SYNC_EVERY_MINUTES} minutes.`,
  crashed: `This calendar stopped GigLedger's reader, so it is no longer read every ${SYNC_EVERY_MINUTES} minutes.`,
};

/** The artist's imported calendars, oldest first. */
export async function listImportedCalendars(ctx: Ctx, actor: Actor): Promise<ImportedCalendar[]> {
  if (!canImportCalendars(actor)) return [];
  const rows = await ctx.db
    .select({
      id: externalCalendars.id,
      url: externalCalendars.url,
      lastSyncedAt: externalCalendars.lastSyncedAt,
      lastError: externalCalendars.lastError,
      stoppedAt: externalCalendars.stoppedAt,
      busyDays: sql<number>`(SELECT count(*)::int FROM imported_busy_days i WHERE i.calendar_id = ${externalCalendars.id})`,
    })
    .from(externalCalendars)
    .where(eq(externalCalendars.artistProfileId, actor.artistProfileId))
    .orderBy(asc(externalCalendars.createdAt), asc(externalCalendars.id));
  return rows.map(({ url, ...r }) => ({ ...r, host: new URL(url).host }));
}

/**
 * The days from `from` to `to` (inclusive) on which the actor's imported calendars are busy, with
 * the calendars' hosts: date → hosts. The artist's own only (others see such a day as
 * "Unavailable", like any other, through `getBusyDays`).
 */
export async function getImportedBusyDays(
  ctx: Ctx,
  actor: Actor,
  input: { from: string; to: string },
): Promise<Record<string, string[]>> {
  if (!canImportCalendars(actor)) return {};
  const rows = await queryRows<{ date: string; url: string }>(
    ctx.db,
    sql`SELECT i.date::text AS date, c.url FROM imported_busy_days i
      JOIN external_calendars c ON c.id = i.calendar_id
      WHERE i.artist_profile_id = ${actor.artistProfileId}
        AND i.date BETWEEN ${input.from}::date AND ${input.to}::date
      ORDER BY i.date, c.created_at, c.id`,
  );
  const days: Record<string, string[]> = {};
  for (const { date, url } of rows) {
    const host = new URL(url).host;
    const hosts = days[date] ?? [];
    if (!hosts.includes(host)) days[date] = [...hosts, host];
  }
  return days;
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
  await withinReadLimit(ctx, actor);
  // The database holds the limit (a trigger counts under the artist's row lock, migration 0012):
  // counting here first let 12 adds at once store 6.
  const added = await ctx.db
    .insert(externalCalendars)
    .values({ artistProfileId: actor.artistProfileId, url: input.url, syncStartedAt: sql`now()` })
    .onConflictDoNothing()
    .returning({ id: externalCalendars.id, url: externalCalendars.url })
    .then(
      ([row]) => row,
      (error: unknown) => {
        if (isOverLimit(error)) refuse("conflict", TOO_MANY);
        throw error;
      },
    );
  if (!added) refuse("conflict", "This calendar is already added.");
  return readCalendar(ctx, added.id, added.url, options);
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

/**
 * 'Sync now': reads one of the actor's calendars, a stopped one too (the artist may have fixed
 * it; a read that works clears the stop). At most one read of a calendar a minute, and
 * SYNC_NOW_LIMIT reads a user asks for (adds included) in its window: 30 clicks fetched 31 times.
 */
export async function syncImportedCalendar(
  ctx: Ctx,
  actor: Actor,
  input: { calendarId: string },
  options: SyncOptions = {},
): Promise<{ ok: true; busyDays: number } | { ok: false; error: string }> {
  if (!canImportCalendars(actor)) refuse("not_found", NOT_FOUND);
  const ours = and(
    eq(externalCalendars.id, input.calendarId),
    eq(externalCalendars.artistProfileId, actor.artistProfileId),
  );
  const [calendar] = await ctx.db
    .select({ id: externalCalendars.id })
    .from(externalCalendars)
    .where(ours);
  if (!calendar) refuse("not_found", NOT_FOUND);
  await withinReadLimit(ctx, actor);
  // Claimed in one statement: of many clicks at once, one reads.
  const minIntervalMs = options.minIntervalMs ?? SYNC_NOW_MIN_INTERVAL_MS;
  const [claimed] = await ctx.db
    .update(externalCalendars)
    .set({ syncStartedAt: sql`now()` })
    .where(
      and(
        ours,
        sql`(${externalCalendars.syncStartedAt} IS NULL OR ${externalCalendars.syncStartedAt} <= now() - make_interval(secs => ${minIntervalMs / 1000}))`,
      ),
    )
    .returning({ id: externalCalendars.id, url: externalCalendars.url });
  if (!claimed)
    refuse("rate_limited", "This calendar was read less than a minute ago. Please try again soon.");
  return readCalendar(ctx, claimed.id, claimed.url, options);
}

/** Counts a read the actor asks for against SYNC_NOW_LIMIT. */
async function withinReadLimit(ctx: Ctx, actor: { id: string }) {
  const limit = await hitRateLimit(ctx.db, `calendar-read:${actor.id}`, SYNC_NOW_LIMIT);
  if (!limit.allowed) {
    const minutes = Math.max(1, Math.ceil(limit.retryAfterMs / 60_000));
    refuse(
      "rate_limited",
      `Your calendars were read ${SYNC_NOW_LIMIT.max} times in the last ${SYNC_NOW_LIMIT.windowMs / 60_000} minutes. Please try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}; GigLedger also reads them by itself every ${SYNC_EVERY_MINUTES} minutes.`,
    );
  }
}

const busyDaysTask = new URL("./busy-days.worker.ts", import.meta.url);

/**
 * The file's busy days, read in a worker of its own within `limits` (decision 041): a file that
 * runs past them costs that worker, never the server, and nothing it did reaches the next file.
 */
async function readBusyDays(input: BusyDaysInput, limits: IsolationLimits) {
  const read = await runIsolated<BusyDaysOutput>(busyDaysTask, input, limits);
  if (!read.ok) throw new NotACalendar();
  return read.dates;
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
    const { readLimits, minIntervalMs: _interval, ...fetchOptions } = options;
    const text = await safeFetchText(url, { ...fetchOptions, allowLoopback: !ctx.env.isPublic });
    const [owner] = await ctx.db
      .select({ id: artistProfiles.id, timeZone: artistProfiles.timeZone })
      .from(externalCalendars)
      .innerJoin(artistProfiles, eq(artistProfiles.id, externalCalendars.artistProfileId))
      .where(eq(externalCalendars.id, calendarId));
    if (!owner) return { ok: false, error: NOT_FOUND };
    const from = todayIn(owner.timeZone);
    const dates = await readBusyDays(
      { text, window: { from, to: addDays(from, IMPORT_HORIZON_DAYS), timeZone: owner.timeZone } },
      { ...READ_LIMITS, ...readLimits },
    );
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
        .set({ lastSyncedAt: sql`now()`, lastError: null, stoppedAt: null, stopReason: null })
        .where(eq(externalCalendars.id, calendarId));
    });
    return { ok: true, busyDays: dates.length };
  } catch (error) {
    if (error instanceof IsolatedWorkFailed && error.reason !== "busy") {
      // The file ran past its limits or stopped its reader: reading it again would do the same,
      // so the background sync leaves it until the artist asks ('Sync now') or adds it again.
      ctx.logger.warn({ calendarId, reason: error.reason }, "calendar read stopped at its limits");
      const message = STOPPED[error.reason];
      await ctx.db
        .update(externalCalendars)
        .set({ lastError: message, stoppedAt: sql`now()`, stopReason: error.reason })
        .where(eq(externalCalendars.id, calendarId));
      return { ok: false, error: message };
    }
    const known = error instanceof FetchRefused || error instanceof NotACalendar;
    if (!known && !(error instanceof IsolatedWorkFailed))
      ctx.logger.error({ err: error, calendarId }, "calendar sync failed");
    const message = known
      ? (error as Error).message
      : error instanceof IsolatedWorkFailed
        ? BUSY
        : UNEXPECTED;
    await ctx.db
      .update(externalCalendars)
      .set({ lastError: message })
      .where(eq(externalCalendars.id, calendarId));
    return { ok: false, error: message };
  }
}

/** The schedule's queue: every minute, one instance queues the calendars that are due. */
export const FIND_DUE_CALENDARS_QUEUE = "calendars.find-due";
/** One job per calendar to read, keyed by the calendar. */
export const READ_CALENDAR_QUEUE = "calendars.read";

/**
 * Queues a read of each calendar not read for SYNC_EVERY_MINUTES (at most `limit`) and marks it
 * started, so that it is not queued again for that long. Returns the calendars' ids.
 */
export async function queueDueCalendars(tx: Queryable, limit = 100) {
  const due = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE external_calendars SET sync_started_at = now()
      WHERE id IN (
        SELECT id FROM external_calendars
        WHERE stopped_at IS NULL
          AND (sync_started_at IS NULL
            OR sync_started_at < now() - make_interval(mins => ${SYNC_EVERY_MINUTES}))
        ORDER BY sync_started_at NULLS FIRST
        LIMIT ${limit})
      RETURNING id`,
  );
  for (const { id } of due) await enqueueJob(tx, { queue: READ_CALENDAR_QUEUE, key: id });
  return due.map(({ id }) => id);
}

/**
 * The calendar sync as jobs (app/lib/jobs.server.ts): the scheduled round queues what is due;
 * each read runs outside any transaction (it waits for another server), one calendar per job.
 * A calendar stopped or removed meanwhile is left alone.
 */
export function calendarJobs(ctx: Ctx, options: SyncOptions = {}): QueueHandler[] {
  return [
    {
      queue: FIND_DUE_CALENDARS_QUEUE,
      everySeconds: 60,
      leaseSeconds: 60,
      inTransaction: async (tx) => {
        await queueDueCalendars(tx);
      },
    },
    {
      queue: READ_CALENDAR_QUEUE,
      // Longer than a read may take: the fetch's and the reader's own limits end it first.
      leaseSeconds: 300,
      outside: async (job) => {
        const [calendar] = await ctx.db
          .select({ url: externalCalendars.url })
          .from(externalCalendars)
          .where(and(eq(externalCalendars.id, job.key), isNull(externalCalendars.stoppedAt)));
        if (calendar) await readCalendar(ctx, job.key, calendar.url, options);
      },
    },
  ];
}
