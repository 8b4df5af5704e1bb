import { and, count, eq, gte, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { refuse } from "~/lib/problem";
import { availability, bookings } from "~db/schema";
import { type ArtistRef, canEditArtistProfile } from "./artists.policy";

export type DashboardCounts = { pendingBookings: number; scheduledDates: number };

/**
 * Figures for the dashboard header and Recent Activity, each one indexed lookup. Only the artist
 * sees their own; anyone else's is "not found".
 */
export async function getDashboardCounts(
  ctx: Pick<AppContext, "db">,
  actor: Actor,
  { artist, today }: { artist: ArtistRef; today: string },
): Promise<DashboardCounts> {
  if (!canEditArtistProfile(actor, artist)) refuse("not_found", "Artist profile not found.");
  const { db } = ctx;
  const [[pending], [scheduled]] = await Promise.all([
    db
      .select({ n: count() })
      .from(bookings)
      .where(
        and(
          eq(bookings.artistProfileId, artist.id),
          eq(bookings.status, "pending"),
          // A pending request whose date has passed reads as cancelled (docs/product.md, Bookings).
          gte(bookings.eventDate, today),
        ),
      ),
    db
      .select({ n: count() })
      .from(availability)
      .where(
        and(
          eq(availability.artistProfileId, artist.id),
          gte(availability.date, today),
          sql`${availability.status} <> 'unavailable'`,
        ),
      ),
  ]);
  return { pendingBookings: pending?.n ?? 0, scheduledDates: scheduled?.n ?? 0 };
}
