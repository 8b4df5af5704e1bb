import { artistProfiles } from "~db/schema";

/** An artist as a card shows them: the landing page, discovery and the profile all start from it. */
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
  /** Gigs booked, completed and rated here (Client-verified sessions). */
  clientVerifiedSessions: number;
  isAvailable: boolean;
  avatarPath: string | null;
  /** Rupees per hour, or null when the artist quotes each booking. */
  hourlyRate: number | null;
  /** Rupees a booking costs at least, for an artist who quotes (decision 064), or null. */
  startingPrice: number | null;
};

export const summaryColumns = {
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
  clientVerifiedSessions: artistProfiles.clientVerifiedSessions,
  isAvailable: artistProfiles.isAvailable,
  avatarPath: artistProfiles.avatarPath,
  hourlyRate: artistProfiles.hourlyRate,
  startingPrice: artistProfiles.startingPrice,
};
