import { type SQL, sql } from "drizzle-orm";
import { freeOnDateSql } from "~/features/availability/availability.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { formatPaise } from "~/lib/money-text";
import { type Queryable, queryRows } from "~db/client";
import type { BookingView } from "./booking-views.server";
import { canSeeSubstitutes } from "./bookings.policy";

const MAX_SUBSTITUTES = 6;

export type Substitute = {
  id: string;
  slug: string;
  artistName: string;
  genre: string;
  location: string;
  avatarPath: string | null;
  rating: number;
  totalReviews: number;
  /** Verified sessions they played with the artist who cancelled (either one's session). */
  sessionsTogether: number;
  /** In the cancelling artist's city. */
  sameCity: boolean;
  /** The cancelling artist's genre: 'same', 'similar' (see GENRE_FAMILIES) or null. */
  genreMatch: "same" | "similar" | null;
  /** Bookings made here, completed and rated by their clients. */
  clientVerifiedGigs: number;
};

/**
 * Genres that can stand in for one another at a gig. Genres are free text, so a genre belongs to
 * a family when it contains one of the family's words ("Jazz fusion" is jazz); two genres are
 * similar when they share a family. Used only to rank substitutes, never to leave one out.
 */
const GENRE_FAMILIES: readonly (readonly string[])[] = [
  ["jazz", "blues", "soul", "funk", "swing"],
  ["blues", "rock", "country", "folk"],
  ["rock", "pop", "indie", "metal", "punk", "alternative"],
  ["pop", "hip-hop", "hip hop", "rap", "r&b", "electronic"],
  ["classical", "orchestral", "opera", "chamber", "baroque"],
  ["bollywood", "filmi", "ghazal", "indian", "qawwali", "pop"],
];

/** The words of every family the genre belongs to (lower case), or none. */
export function relatedGenreWords(genre: string): string[] {
  const g = genre.trim().toLowerCase();
  const words = GENRE_FAMILIES.filter((family) => family.some((w) => g.includes(w))).flat();
  return [...new Set(words)];
}

/**
 * When an artist cancels a confirmed booking, its client is offered up to six artists free that
 * day (`freeOnDateSql`), never the cancelling artist or the client themselves, ranked by the
 * signals in docs/product.md ("Bookings", Substitutes): the same city first; then the verified
 * sessions they played with the cancelling artist; the same genre, then a similar one; gigs
 * verified by clients here; rating. Only the booking's client gets them, only while the date is
 * ahead (null otherwise); an empty list still comes with a search for the date.
 */
export async function listSubstitutes(
  ctx: Pick<AppContext, "db">,
  actor: Actor,
  booking: BookingView,
): Promise<Substitute[] | null> {
  if (!canSeeSubstitutes(actor, booking)) return null;
  return substitutesFor(ctx.db, booking);
}

/**
 * The ranked substitutes for a booking, without asking who reads them: for the cancel mail, which
 * goes to the booking's client and says only what their page will show.
 */
export async function substitutesFor(
  db: Queryable,
  booking: Pick<BookingView, "artistProfileId" | "clientUserId" | "eventDate">,
): Promise<Substitute[]> {
  if (!booking.artistProfileId) return [];
  const gone = sql`${booking.artistProfileId}::uuid`;
  const [cancelling] = await queryRows<{ genre: string; location: string }>(
    db,
    sql`SELECT genre, location FROM artist_profiles WHERE id = ${gone}`,
  );
  if (!cancelling) return [];
  const genre = cancelling.genre.trim().toLowerCase();
  const related = relatedGenreWords(genre);
  const similar: SQL = related.length
    ? sql`lower(a.genre) LIKE ANY (ARRAY[${sql.join(
        related.map((w) => sql`${`%${w}%`}`),
        sql`, `,
      )}]::text[])`
    : sql`false`;
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
    same_city: boolean;
    genre_match: number;
  }>(
    db,
    sql`
      WITH played AS (
        SELECT p.artist_profile_id AS other, s.id AS session_id
          FROM music_sessions s JOIN session_participants p ON p.session_id = s.id
          WHERE s.is_verified AND s.artist_profile_id = ${gone}
        UNION ALL
        SELECT pv.verified_by_artist_id, s.id
          FROM music_sessions s JOIN peer_verifications pv ON pv.session_id = s.id
          WHERE s.is_verified AND s.artist_profile_id = ${gone}
        UNION ALL
        SELECT s.artist_profile_id, s.id
          FROM music_sessions s JOIN session_participants p ON p.session_id = s.id
          WHERE s.is_verified AND p.artist_profile_id = ${gone}
        UNION ALL
        SELECT s.artist_profile_id, s.id
          FROM music_sessions s JOIN peer_verifications pv ON pv.session_id = s.id
          WHERE s.is_verified AND pv.verified_by_artist_id = ${gone}
      ),
      together AS (
        SELECT other AS id, count(DISTINCT session_id)::int AS n FROM played GROUP BY other
      ),
      ranked AS (
        SELECT a.id, a.slug, a.artist_name, a.genre, a.location, a.avatar_path, a.rating,
          a.total_reviews, a.user_id,
          coalesce(t.n, 0) AS together,
          a.location = ${cancelling.location} AS same_city,
          CASE WHEN lower(trim(a.genre)) = ${genre} THEN 2 WHEN ${similar} THEN 1 ELSE 0 END
            AS genre_match
        FROM artist_profiles a LEFT JOIN together t ON t.id = a.id
        WHERE a.id <> ${gone}
      )
      SELECT * FROM ranked a
      WHERE (a.together > 0 OR a.same_city OR a.genre_match > 0)
        AND a.user_id IS DISTINCT FROM ${booking.clientUserId}::uuid
        AND ${freeOnDateSql(sql`a.id`, booking.eventDate)}
      ORDER BY a.same_city DESC, a.together DESC, a.genre_match DESC, a.total_reviews DESC,
        a.rating DESC, a.id
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
    sameCity: r.same_city,
    genreMatch: r.genre_match === 2 ? "same" : r.genre_match === 1 ? "similar" : null,
    // A rating is given only to a completed booking, so the rated bookings are the client-verified
    // gigs (docs/product.md, "Ratings").
    clientVerifiedGigs: r.total_reviews,
  }));
}

/** The booking form for a substitute, filled in with the cancelled booking's details. */
/**
 * The request's details for a substitute: the agreed price and length of the booking it replaces,
 * and its details, so that the new artist can quote the same terms (issue 42).
 */
export function substituteMessageOf(
  booking: Pick<BookingView, "totalAmount" | "durationHours" | "eventType" | "message">,
): string {
  const price = formatPaise(Math.round(booking.totalAmount * 100));
  const terms = `I need an artist in place of one who could not come, on the same terms: ${price} for ${booking.durationHours} hours (${booking.eventType}).`;
  const details = booking.message ? `\n\n${booking.message}` : "";
  return `${terms}${details}`.slice(0, 2000);
}

export function substituteBookingHref(slug: string, booking: BookingView): string {
  const params = new URLSearchParams({
    artist: slug,
    date: booking.eventDate,
    hours: String(booking.durationHours),
    venue: booking.venue,
    eventType: booking.eventType,
    // The same terms, in the request's own words: the new artist answers with a quote on them.
    message: substituteMessageOf(booking),
  });
  if (booking.startTime) params.set("startTime", booking.startTime);
  return `/bookings?${params}`;
}

/** Discovery showing every artist free on the booking's date ("Available on"). */
export function substituteSearchHref(booking: Pick<BookingView, "eventDate">): string {
  return `/artist-discovery?${new URLSearchParams({ date: booking.eventDate })}`;
}
