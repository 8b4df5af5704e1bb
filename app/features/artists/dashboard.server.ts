import { and, count, eq, gte, ne, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { refuse } from "~/lib/problem";
import { availability, bookings, musicSessions, sessionParticipants } from "~db/schema";
import { type ArtistRef, canEditArtistProfile } from "./artists.policy";

type DashboardCounts = {
  pendingBookings: number;
  scheduledDates: number;
  /**
   * Other artists' sessions this one joined as a verified collaborator: their Sessions tab lists
   * them beside their own (docs/product.md, Lists), which the profile's counters do not count.
   */
  joined: { sessions: number; verified: number; minutes: number };
};

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
  const [[pending], [scheduled], [joined]] = await Promise.all([
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
    // One collaborator row per session and artist (a unique index), so each session counts once.
    db
      .select({
        sessions: count(),
        verified: sql<number>`count(*) FILTER (WHERE ${musicSessions.isVerified})`.mapWith(Number),
        minutes: sql<number>`coalesce(sum(${musicSessions.durationMinutes}), 0)`.mapWith(Number),
      })
      .from(sessionParticipants)
      .innerJoin(musicSessions, eq(musicSessions.id, sessionParticipants.sessionId))
      .where(
        and(
          eq(sessionParticipants.artistProfileId, artist.id),
          eq(sessionParticipants.participationType, "collaborator"),
          eq(sessionParticipants.verificationStatus, "verified"),
          ne(musicSessions.artistProfileId, artist.id),
        ),
      ),
  ]);
  return {
    pendingBookings: pending?.n ?? 0,
    scheduledDates: scheduled?.n ?? 0,
    joined: {
      sessions: joined?.sessions ?? 0,
      verified: joined?.verified ?? 0,
      minutes: joined?.minutes ?? 0,
    },
  };
}
