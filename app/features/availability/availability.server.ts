import { and, asc, eq, gte, lte } from "drizzle-orm";
import type { Queryable } from "~db/client";
import { availability } from "~db/schema";

export type AvailabilityRow = {
  date: string;
  status: "available" | "booked" | "unavailable";
  notes: string | null;
};

/** The artist's availability between two calendar dates (inclusive), earliest first. */
export async function getAvailability(
  db: Queryable,
  artistId: string,
  from: string,
  to: string,
): Promise<AvailabilityRow[]> {
  return db
    .select({ date: availability.date, status: availability.status, notes: availability.notes })
    .from(availability)
    .where(
      and(
        eq(availability.artistProfileId, artistId),
        gte(availability.date, from),
        lte(availability.date, to),
      ),
    )
    .orderBy(asc(availability.date));
}

/** One entry per artist and date: a new status replaces the old one. */
export async function setAvailability(
  db: Queryable,
  artistId: string,
  date: string,
  status: AvailabilityRow["status"],
  notes: string | null,
) {
  await db
    .insert(availability)
    .values({ artistProfileId: artistId, date, status, notes })
    .onConflictDoUpdate({
      target: [availability.artistProfileId, availability.date],
      set: { status, notes, updatedAt: new Date() },
    });
}

export async function clearAvailability(db: Queryable, artistId: string, date: string) {
  await db
    .delete(availability)
    .where(and(eq(availability.artistProfileId, artistId), eq(availability.date, date)));
}
