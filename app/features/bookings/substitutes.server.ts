import { sql } from "drizzle-orm";
import { freeOnDateSql } from "~/features/availability/availability.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { queryRows } from "~db/client";
import { isBookingClient } from "./bookings.policy";
import type { BookingView } from "./bookings.server";

export const MAX_SUBSTITUTES = 6;

export type Substitute = {
  id: string;
  slug: string;
  artistName: string;
  genre: string;
  location: string;
  avatarPath: string | null;
  rating: number;
  totalReviews: number;
  /** Sessions they played with the artist who cancelled, peer-confirmed or better. */
  sessionsTogether: number;
  /** Bookings made here, completed and rated by their clients. */
  clientVerifiedGigs: number;
};

/**
 * When an artist cancels a confirmed booking, its client is offered up to six artists free on
 * that date (the availability rule of `freeOnDateSql`), in the same genre and location: first
 * those who played verified sessions with the cancelling artist, then by client-verified gigs,
 * then by rating. Only the booking's client sees them, only while the date is still ahead.
 */
export async function listSubstitutes(
  ctx: Pick<AppContext, "db">,
  actor: Actor,
  booking: BookingView,
): Promise<Substitute[]> {
  const offered =
    isBookingClient(actor, booking) &&
    booking.status === "cancelled" &&
    booking.cancelledBy === "artist" &&
    booking.beforeEventDay &&
    booking.artistProfileId !== null;
  if (!offered || !booking.artistProfileId) return [];
  const gone = sql`${booking.artistProfileId}::uuid`;
  const rows = await queryRows<{
    id: string;
    slug: string;
    artist_name: string;
    genre: string;
    location: string;
    avatar_path: string | null;
    rating: string | number;
    total_reviews: number;
    together: number;
    verified_gigs: number;
  }>(
    ctx.db,
    sql`
      WITH cancelling AS (SELECT genre, location FROM artist_profiles WHERE id = ${gone})
      SELECT a.id, a.slug, a.artist_name, a.genre, a.location, a.avatar_path, a.rating,
        a.total_reviews,
        (SELECT count(*) FROM music_sessions s
          WHERE s.is_verified AND (
            (s.artist_profile_id = ${gone} AND (
              EXISTS (SELECT 1 FROM session_participants p
                WHERE p.session_id = s.id AND p.artist_profile_id = a.id)
              OR EXISTS (SELECT 1 FROM peer_verifications pv
                WHERE pv.session_id = s.id AND pv.verified_by_artist_id = a.id)))
            OR (s.artist_profile_id = a.id AND (
              EXISTS (SELECT 1 FROM session_participants p
                WHERE p.session_id = s.id AND p.artist_profile_id = ${gone})
              OR EXISTS (SELECT 1 FROM peer_verifications pv
                WHERE pv.session_id = s.id AND pv.verified_by_artist_id = ${gone})))))::int
          AS together,
        (SELECT count(*) FROM bookings g
          WHERE g.artist_profile_id = a.id AND g.status = 'completed' AND g.rating_given)::int
          AS verified_gigs
      FROM artist_profiles a, cancelling c
      WHERE a.id <> ${gone} AND a.genre = c.genre AND a.location = c.location
        AND a.user_id IS DISTINCT FROM ${booking.clientUserId}::uuid
        AND ${freeOnDateSql(sql`a.id`, booking.eventDate)}
      ORDER BY together DESC, verified_gigs DESC, a.rating DESC, a.id
      LIMIT ${MAX_SUBSTITUTES}`,
  );
  return rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    artistName: r.artist_name,
    genre: r.genre,
    location: r.location,
    avatarPath: r.avatar_path,
    rating: Number(r.rating),
    totalReviews: r.total_reviews,
    sessionsTogether: r.together,
    clientVerifiedGigs: r.verified_gigs,
  }));
}

/** The booking form for a substitute, filled in with the cancelled booking's details. */
export function substituteBookingHref(slug: string, booking: BookingView): string {
  const params = new URLSearchParams({
    artist: slug,
    date: booking.eventDate,
    hours: String(booking.durationHours),
    venue: booking.venue,
    eventType: booking.eventType,
  });
  if (booking.startTime) params.set("startTime", booking.startTime);
  return `/bookings?${params}`;
}
