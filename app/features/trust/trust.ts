/**
 * The trust figures an artist's profile and discovery card show, with the rules that make them
 * (computed in trust.server.ts from the booking rows) and the words they are shown in.
 */
import { plural } from "~/lib/number-text";

export const RESPONSE_WINDOW_HOURS = 24;
/** Below this many counted requests (or confirmed bookings) a figure is not shown. */
export const MIN_COUNTED = 5;

export type ResponseFigures = {
  /** Requests of the last 90 days that count (see trust.server.ts). */
  counted: number;
  answeredWithinWindow: number;
  /** Median minutes to the first answer, over the answered ones. */
  medianMinutes: number | null;
};

type CancellationFigures = {
  /** Bookings the artist confirmed in the last 12 months. */
  confirmed: number;
  /** Of those, the ones the artist cancelled. */
  cancelled: number;
};

export type TrustFigures = { response: ResponseFigures; cancellations: CancellationFigures };

export type ClientRecord = {
  completedBookings: number;
  cancelledBookings: number;
  /** Artists' ratings of this client after completed bookings (issue 42), newest first. */
  ratings: {
    count: number;
    average: number | null;
    latest: { stars: number; comment: string | null }[];
  };
};

export type CountedRequest = {
  /** The first of the client's requests that day. */
  bookingId: string;
  eventDate: string;
  /** The client's further requests to the artist that day, counted with the first as one. */
  sameDayRequests: number;
  receivedAt: string;
  firstAnswerAt: string | null;
  withinWindow: boolean;
};

export type CountedCancellation = {
  bookingId: string;
  eventDate: string;
  confirmedAt: string;
  /** Set when the artist cancelled it. */
  cancelledAt: string | null;
};

/** "Responds within 24 h to 92% of requests (25 in 90 days)", or null below 5 requests. */
export function responseRateText(r: ResponseFigures): string | null {
  if (r.counted < MIN_COUNTED) return null;
  const percent = Math.round((r.answeredWithinWindow / r.counted) * 100);
  return `Responds within ${RESPONSE_WINDOW_HOURS} h to ${percent}% of requests (${r.counted} in 90 days)`;
}

/** "Typically responds in 3 h", or null below 5 requests or without an answer yet. */
export function responseTimeText(r: ResponseFigures): string | null {
  if (r.counted < MIN_COUNTED || r.medianMinutes === null) return null;
  return `Typically responds in ${formatWait(r.medianMinutes)}`;
}

/** "Cancelled 1 of 12 confirmed bookings in 12 months", or null below 5 confirmed bookings. */
export function cancellationText(c: CancellationFigures): string | null {
  if (c.confirmed < MIN_COUNTED) return null;
  return `Cancelled ${c.cancelled} of ${plural(c.confirmed, "confirmed booking")} in 12 months`;
}

/** 0 → "under a minute", 45 → "45 min", 180 → "3 h", 3000 → "2 days". */
export function formatWait(minutes: number): string {
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return plural(Math.round(hours / 24), "day");
}

/**
 * What is known of an artist too new for the figures (issue 43: never nothing): "New on GigLedger
 * · 2 verified sessions", or "New on GigLedger · no verified sessions yet".
 */
export function newcomerText(verifiedSessions: number): string {
  return `New on GigLedger · ${verifiedSessions > 0 ? plural(verifiedSessions, "verified session") : "no verified sessions yet"}`;
}

/** "Rated 4.5 of 5 by artists (2 ratings)", or null before any rating. */
export function clientRatingText(c: ClientRecord): string | null {
  if (c.ratings.count === 0 || c.ratings.average === null) return null;
  return `Rated ${c.ratings.average.toFixed(1)} of 5 by artists (${plural(c.ratings.count, "rating")})`;
}

/** "3 completed bookings and 1 cancellation here" for an artist reading a request. */
export function clientRecordText(c: ClientRecord): string {
  if (c.completedBookings === 0 && c.cancelledBookings === 0) return "New to GigLedger bookings";
  return `${plural(c.completedBookings, "completed booking")} and ${plural(c.cancelledBookings, "cancellation")} here`;
}
