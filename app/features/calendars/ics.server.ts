import { TZDate } from "@date-fns/tz";
import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import ical, { ICalCalendarMethod, ICalEventBusyStatus, ICalEventStatus } from "ical-generator";
import type { BookingStatus } from "~/features/bookings/bookings.policy";
import { addDays, zonedDateTimeToUtc } from "~/lib/dates";
import { FEED_REFRESH_MINUTES } from "./calendars.constants";

/**
 * iCalendar (RFC 5545) output with ical-generator (decision 016). Three things its version 10
 * would get wrong on its own are handled here: DTSTAMP is written in UTC because no
 * calendar-wide time zone is set (each timed event carries its artist's zone and the VTIMEZONE
 * for it); start times are `TZDate`s, so the wall clock is the artist's whatever the server's
 * zone; and the text ends with the CRLF that RFC 5545 requires after END:VCALENDAR.
 */

/** One booking as a calendar shows it. */
export type BookingEvent = {
  id: string;
  /** As of the artist's today (see docs/product.md, Bookings). */
  status: BookingStatus;
  /** Grows with every change a calendar shows (a trigger keeps it, migration 0007). */
  sequence: number;
  updatedAt: Date;
  eventDate: string;
  /** `HH:MM` in `timeZone`, or null (then the event is all-day). */
  startTime: string | null;
  durationHours: number;
  timeZone: string;
  summary: string;
  venue: string;
  url: string;
};

/** A day the artist marked unavailable: a busy all-day event with nothing else said. */
export type UnavailableDay = { artistId: string; date: string; updatedAt: Date };

const STATUS: Record<BookingStatus, ICalEventStatus> = {
  pending: ICalEventStatus.TENTATIVE,
  awaiting_deposit: ICalEventStatus.TENTATIVE,
  confirmed: ICalEventStatus.CONFIRMED,
  completed: ICalEventStatus.CONFIRMED,
  cancelled: ICalEventStatus.CANCELLED,
  rejected: ICalEventStatus.CANCELLED,
};

/** A calendar date as the instant ical-generator writes as that date (`VALUE=DATE`). */
const dateValue = (date: string) => new Date(`${date}T00:00:00Z`);

function newCalendar(name: string, forFeed: boolean) {
  return ical({
    name,
    prodId: { company: "GigLedger", product: "GigLedger", language: "EN" },
    method: forFeed ? null : ICalCalendarMethod.PUBLISH,
    // The generator adds a VTIMEZONE for each zone an event uses; no calendar-wide zone, so that
    // DTSTAMP stays in UTC.
    timezone: { name: null, generator: getVtimezoneComponent },
    ttl: forFeed ? FEED_REFRESH_MINUTES * 60 : null,
  });
}

function addBooking(calendar: ReturnType<typeof ical>, event: BookingEvent) {
  const common = {
    id: `booking-${event.id}@gigledger`,
    sequence: event.sequence,
    stamp: event.updatedAt,
    summary: event.summary,
    location: event.venue,
    url: event.url,
    description: `Booking on GigLedger: ${event.url}`,
    status: STATUS[event.status],
    busystatus:
      STATUS[event.status] === ICalEventStatus.CANCELLED
        ? ICalEventBusyStatus.FREE
        : STATUS[event.status] === ICalEventStatus.TENTATIVE
          ? ICalEventBusyStatus.TENTATIVE
          : ICalEventBusyStatus.BUSY,
  };
  if (event.startTime) {
    const start = zonedDateTimeToUtc(event.eventDate, event.startTime, event.timeZone);
    const end = new Date(start.getTime() + event.durationHours * 3_600_000);
    calendar.createEvent({
      ...common,
      timezone: event.timeZone,
      start: new TZDate(start.getTime(), event.timeZone),
      end: new TZDate(end.getTime(), event.timeZone),
    });
  } else {
    calendar.createEvent({
      ...common,
      allDay: true,
      start: dateValue(event.eventDate),
      end: dateValue(addDays(event.eventDate, 1)),
    });
  }
}

/** RFC 5545 text, ending with CRLF (ical-generator 10 leaves the last one out). */
function text(calendar: ReturnType<typeof ical>) {
  const out = calendar.toString();
  return out.endsWith("\r\n") ? out : `${out}\r\n`;
}

/** A private feed: bookings (tentative, confirmed, cancelled) and days marked unavailable. */
export function feedCalendar(input: {
  name: string;
  bookings: BookingEvent[];
  unavailable: UnavailableDay[];
}): string {
  const calendar = newCalendar(input.name, true);
  for (const event of input.bookings) addBooking(calendar, event);
  for (const day of input.unavailable) {
    calendar.createEvent({
      id: `unavailable-${day.artistId}-${day.date}@gigledger`,
      sequence: 0,
      stamp: day.updatedAt,
      summary: "Unavailable",
      allDay: true,
      start: dateValue(day.date),
      end: dateValue(addDays(day.date, 1)),
      busystatus: ICalEventBusyStatus.BUSY,
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return text(calendar);
}

/** One booking as a file to add to a calendar ('Add to calendar'). */
export function singleEventCalendar(event: BookingEvent): string {
  const calendar = newCalendar("GigLedger booking", false);
  addBooking(calendar, event);
  return text(calendar);
}
