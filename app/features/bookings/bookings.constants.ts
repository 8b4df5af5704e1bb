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
} as const;
