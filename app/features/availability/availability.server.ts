import { and, asc, eq, gte, lte } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { todayIn } from "~/lib/dates";
import { refuse } from "~/lib/problem";
import { artistProfiles, availability } from "~db/schema";
import type { AvailabilityEntry, AvailabilityStatus } from "./availability";
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

/** One entry per artist and date: a new status replaces the old one. */
export async function setAvailability(
  ctx: Ctx,
  actor: Actor,
  input: { date: string; status: AvailabilityStatus; notes: string | null },
) {
  const artistProfileId = await calendarOf(ctx, actor, input.date);
  const { date, status, notes } = input;
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
