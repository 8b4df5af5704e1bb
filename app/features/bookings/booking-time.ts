import {
  formatDuration,
  formatLongDate,
  formatTime,
  zoneAbbreviation,
  zonedDateTimeToUtc,
} from "~/lib/dates";

/** A booking's date and optional start time: wall-clock values in the artist's zone. */
type BookingWhen = { eventDate: string; startTime: string | null; timeZone: string };

/**
 * The start time as "7:00 PM", with the artist's zone ("7:00 PM IST") for readers who may be
 * elsewhere; null when no time was given.
 */
export function formatStartTime(b: BookingWhen, options: { withZone?: boolean } = {}) {
  if (!b.startTime) return null;
  const time = formatTime(b.startTime);
  if (!options.withZone) return time;
  const at = zonedDateTimeToUtc(b.eventDate, b.startTime, b.timeZone);
  return `${time} ${zoneAbbreviation(b.timeZone, at)}`;
}

/** "December 1, 2026 at 7:00 PM IST", or only the date when no time was given. */
export function formatBookingWhen(b: BookingWhen, options: { withZone?: boolean } = {}) {
  const time = formatStartTime(b, options);
  return time ? `${formatLongDate(b.eventDate)} at ${time}` : formatLongDate(b.eventDate);
}

export { formatDuration };
