import { zonedDateTimeToUtc } from "~/lib/dates";
import type { AgreementDocument } from "./agreement-document";

// When an agreed event starts and ends, and when its balance falls due, as instants: read from
// the agreement alone, so the page, the cancellation and the payments agree to the minute.

/** When the agreed event starts: its date and start time in the artist's zone (noon without one). */
export function eventStartOf(agreement: Pick<AgreementDocument, "offer">): Date {
  const { date, startTime, timeZone } = agreement.offer.event;
  return zonedDateTimeToUtc(date, startTime ?? "12:00", timeZone);
}

/**
 * When the agreed event ends: its start plus its length; without a start time, the end of its
 * day in the artist's zone.
 */
export function eventEndOf(agreement: Pick<AgreementDocument, "offer">): Date {
  const { date, startTime, timeZone, durationMinutes } = agreement.offer.event;
  if (!startTime) return zonedDateTimeToUtc(date, "23:59", timeZone);
  return new Date(eventStartOf(agreement).getTime() + durationMinutes * 60_000);
}

/** The start of the balance's due day in the artist's zone. */
export function balanceDueAt(agreement: Pick<AgreementDocument, "offer">): Date {
  const { payments, event } = agreement.offer;
  return zonedDateTimeToUtc(payments.balanceDueDate, "00:00", event.timeZone);
}
