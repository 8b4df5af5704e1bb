import { desc } from "drizzle-orm";
import type { Queryable } from "~db/client";
import { artistProfiles } from "~db/schema";

export type ArtistSummary = {
  id: string;
  slug: string;
  artistName: string;
  genre: string;
  location: string;
  bio: string;
  instruments: string;
  rating: number;
  totalReviews: number;
  verifiedSessions: number;
  isAvailable: boolean;
  avatarPath: string | null;
};

const summaryColumns = {
  id: artistProfiles.id,
  slug: artistProfiles.slug,
  artistName: artistProfiles.artistName,
  genre: artistProfiles.genre,
  location: artistProfiles.location,
  bio: artistProfiles.bio,
  instruments: artistProfiles.instruments,
  rating: artistProfiles.rating,
  totalReviews: artistProfiles.totalReviews,
  verifiedSessions: artistProfiles.verifiedSessions,
  isAvailable: artistProfiles.isAvailable,
  avatarPath: artistProfiles.avatarPath,
};

/** The landing page's featured artists: most verified sessions first, then the best rated. */
export async function getFeaturedArtists(db: Queryable, limit = 2): Promise<ArtistSummary[]> {
  return db
    .select(summaryColumns)
    .from(artistProfiles)
    .orderBy(desc(artistProfiles.verifiedSessions), desc(artistProfiles.rating), artistProfiles.id)
    .limit(limit);
}
