/** Reasons a booking refusal carries, for the UI to branch on (never on a message's text). */
export const BOOKING_REFUSALS = {
  /** The chosen date is in the past, booked or unavailable. */
  dateNotAvailable: "date_not_available",
  /** The artist marked the date unavailable after the request came in. */
  dateMarkedUnavailable: "date_marked_unavailable",
  /** The start time on the artist's today has already passed. */
  startTimePassed: "start_time_passed",
  /**
   * The client already has a pending request to this artist for this date; the refusal's
   * `fieldErrors.pendingBookingId` is that request's id, for a link to it.
   */
  duplicateRequest: "duplicate_request",
  /** The client sent too many requests, to this artist or to anyone (see BOOKING_REQUEST_LIMITS). */
  rateLimited: "rate_limited",
  /** The artist's published terms changed between the form and the request. */
  termsChanged: "terms_changed",
  /** The open quote is not the one the client read (revised, withdrawn or expired since). */
  quoteChanged: "quote_changed",
} as const;

/**
 * How many booking requests one client may send (docs/product.md, "Bookings"; decision 038): to
 * one artist, enough for a few dates of a tour or a residency in a day; to everyone, enough to ask
 * a dozen artists for one evening in an hour. Each stored request mails its artist, so these also
 * bound the mail one client can make an artist receive.
 */
export const BOOKING_REQUEST_LIMITS = {
  perArtist: { max: 5, windowMs: 24 * 60 * 60_000 },
  perClient: { max: 12, windowMs: 60 * 60_000 },
} as const;

/** Most artists one request may go to at once (decision 060). */
export const GROUP_REQUEST_MAX = 3;

/**
 * The most artists a group request's address is read for (the request page's `artist` values,
 * discovery's ticks): enough to show a request over the limit, no more.
 */
export const GROUP_REQUEST_ARTISTS_READ = GROUP_REQUEST_MAX + 3;

/** What the one-click rating page says of a link that is not ours, or too old (decision 044). */
export const RATING_LINK_INVALID =
  "This rating link is not valid. Sign in to rate your bookings from Your Bookings.";
export const RATING_LINK_EXPIRED =
  "This rating link has expired. Sign in and you'll come straight to the rating.";
