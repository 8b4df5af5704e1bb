import { and, count, eq, gte, sql } from "drizzle-orm";
import type { Queryable } from "~db/client";
import { availability, bookings } from "~db/schema";

export type DashboardCounts = { pendingBookings: number; scheduledDates: number };

/** Figures for the dashboard header and Recent Activity, each one indexed lookup. */
export async function getDashboardCounts(
  db: Queryable,
  artistId: string,
  today: string,
): Promise<DashboardCounts> {
  const [[pending], [scheduled]] = await Promise.all([
    db
      .select({ n: count() })
      .from(bookings)
      .where(and(eq(bookings.artistProfileId, artistId), eq(bookings.status, "pending"))),
    db
      .select({ n: count() })
      .from(availability)
      .where(
        and(
          eq(availability.artistProfileId, artistId),
          gte(availability.date, today),
          sql`${availability.status} <> 'unavailable'`,
        ),
      ),
  ]);
  return { pendingBookings: pending?.n ?? 0, scheduledDates: scheduled?.n ?? 0 };
}
