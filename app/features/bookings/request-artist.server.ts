import type { PublishedTerms } from "~/features/terms/published-terms";
import { requestTermsOf } from "~/features/terms/published-terms.server";
import type { RequestArtist } from "./booking-request-form";

/**
 * The artist a booking request form goes to, from their profile: what the form shows of them, and
 * their published terms in words and as their hash (the form shows the one and posts the other).
 */
export function requestArtistOf(artist: {
  id: string;
  slug: string;
  artistName: string;
  hourlyRate: number | null;
  timeZone: string;
  depositBps: number;
  balanceDueDays: number;
  cancellationPolicy: PublishedTerms["policy"];
}): RequestArtist & { slug: string } {
  const terms: PublishedTerms = {
    depositBps: artist.depositBps,
    balanceDueDays: artist.balanceDueDays,
    policy: artist.cancellationPolicy,
  };
  return {
    id: artist.id,
    slug: artist.slug,
    artistName: artist.artistName,
    hourlyRate: artist.hourlyRate,
    timeZone: artist.timeZone,
    terms: requestTermsOf(terms),
  };
}
