import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import type { IsoDate } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { bookings, profiles } from "~db/schema";

type Ctx = Pick<AppContext, "db">;

/** One review as a public profile shows it (see docs/product.md, Artist profiles). */
export type ArtistReview = {
  id: string;
  rating: number;
  review: string;
  /** The client's first name; null when unknown or the account is gone ("A client"). */
  clientFirstName: string | null;
  /** The date of the gig the review is about. */
  eventDate: IsoDate;
};

/** How many reviews a profile shows, newest first. */
const REVIEWS_SHOWN = 20;

/**
 * The written reviews of an artist: rated bookings whose client wrote a review, newest gig first,
 * with the client's first name only. Public: every viewer sees the same.
 */
export async function listArtistReviews(
  ctx: Ctx,
  _viewer: Actor,
  { artistId, limit = REVIEWS_SHOWN }: { artistId: string; limit?: number },
): Promise<ArtistReview[]> {
  if (!isUuid(artistId)) return [];
  const rows = await ctx.db
    .select({
      id: bookings.id,
      rating: bookings.rating,
      review: bookings.review,
      firstName: profiles.firstName,
      eventDate: bookings.eventDate,
    })
    .from(bookings)
    .leftJoin(profiles, eq(profiles.id, bookings.clientUserId))
    .where(
      and(
        eq(bookings.artistProfileId, artistId),
        eq(bookings.ratingGiven, true),
        isNotNull(bookings.rating),
        sql`btrim(${bookings.review}) <> ''`,
      ),
    )
    .orderBy(desc(bookings.eventDate), desc(bookings.updatedAt), bookings.id)
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    rating: r.rating ?? 0,
    review: (r.review ?? "").trim(),
    clientFirstName: r.firstName?.trim() || null,
    eventDate: r.eventDate as IsoDate,
  }));
}
