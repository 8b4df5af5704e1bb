import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { zonedDateTimeToUtc } from "~/lib/dates";
import { busyDaysIn } from "./busy-days";
import { type BookingEvent, feedCalendar, singleEventCalendar } from "./ics.server";

// Everything here is read back with ical.js, a parser independent of the generator.

const booking = (fields: Partial<BookingEvent>): BookingEvent => ({
  id: "6f1c2d9e-1111-4222-8333-944455556666",
  status: "confirmed",
  sequence: 2,
  updatedAt: new Date("2026-03-01T10:15:30Z"),
  eventDate: "2026-06-20",
  startTime: "19:00",
  durationHours: 3,
  timeZone: "Asia/Kolkata",
  summary: "Wedding for Priya Shah",
  venue: "Taj Lands End, Mumbai",
  url: "http://localhost:3000/bookings/6f1c2d9e-1111-4222-8333-944455556666",
  ...fields,
});

function parse(text: string) {
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  for (const zone of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  return root;
}

const eventsOf = (root: ICAL.Component) =>
  root.getAllSubcomponents("vevent").map((c) => ({ component: c, event: new ICAL.Event(c) }));

describe("calendar feeds out", () => {
  it("writes bookings with UID, SEQUENCE, UTC DTSTAMP, status, and the zone as a VTIMEZONE", () => {
    const text = feedCalendar({
      name: "Asha: GigLedger schedule",
      bookings: [
        booking({}),
        booking({ id: "a1", status: "pending", sequence: 0 }),
        booking({ id: "c1", status: "cancelled", sequence: 5 }),
        booking({ id: "r1", status: "rejected", sequence: 1 }),
      ],
      unavailable: [
        { artistId: "artist-1", date: "2026-06-25", updatedAt: new Date("2026-03-02T00:00:00Z") },
      ],
    });
    expect(text.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(
      text
        .split("\r\n")
        .every((line) => line.length <= 75 || [...line].some((c) => c.charCodeAt(0) > 0x7f)),
    ).toBe(true);
    const root = parse(text);
    expect(root.getFirstPropertyValue("refresh-interval")?.toString()).toBe("PT15M");
    expect(root.getFirstPropertyValue("x-published-ttl")).toBe("PT15M");
    expect(
      root.getAllSubcomponents("vtimezone").map((z) => z.getFirstPropertyValue("tzid")),
    ).toEqual(["Asia/Kolkata"]);
    const events = eventsOf(root);
    expect(events).toHaveLength(5);
    const byUid = new Map(events.map((e) => [e.event.uid, e.component]));
    const confirmed = byUid.get("booking-6f1c2d9e-1111-4222-8333-944455556666@gigledger");
    expect(confirmed?.getFirstPropertyValue("status")).toBe("CONFIRMED");
    expect(confirmed?.getFirstPropertyValue("sequence")).toBe(2);
    // DTSTAMP is UTC (RFC 5545 3.8.7.2): written with Z, read back as the stored instant.
    expect(text).toMatch(/\r\nDTSTAMP:20260301T101530Z\r\n/);
    const start = confirmed?.getFirstProperty("dtstart");
    expect(start?.getParameter("tzid")).toBe("Asia/Kolkata");
    const event = new ICAL.Event(confirmed as ICAL.Component);
    expect(event.startDate.toJSDate()).toEqual(
      zonedDateTimeToUtc("2026-06-20", "19:00", "Asia/Kolkata"),
    );
    expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(
      3 * 3_600_000,
    );
    expect(event.location).toBe("Taj Lands End, Mumbai");
    expect(byUid.get("booking-a1@gigledger")?.getFirstPropertyValue("status")).toBe("TENTATIVE");
    expect(byUid.get("booking-c1@gigledger")?.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(byUid.get("booking-r1@gigledger")?.getFirstPropertyValue("status")).toBe("CANCELLED");
    const busy = byUid.get("unavailable-artist-1-2026-06-25@gigledger");
    expect(busy?.getFirstPropertyValue("summary")).toBe("Unavailable");
    const busyEvent = new ICAL.Event(busy as ICAL.Component);
    expect(busyEvent.startDate.isDate).toBe(true);
    expect(busyEvent.startDate.toString()).toBe("2026-06-25");
    expect(busyEvent.endDate.toString()).toBe("2026-06-26");
  });

  it("keeps the wall clock across a daylight-saving change in the artist's zone", () => {
    // Berlin moves its clocks from 02:00 to 03:00 on 29 March 2026: a gig from 01:00 for three
    // hours ends at 05:00 local time, three real hours later.
    const text = singleEventCalendar(
      booking({ eventDate: "2026-03-29", startTime: "01:00", timeZone: "Europe/Berlin" }),
    );
    expect(text.endsWith("\r\n")).toBe(true);
    const root = parse(text);
    expect(root.getFirstPropertyValue("method")).toBe("PUBLISH");
    const [only] = eventsOf(root);
    const event = only?.event as ICAL.Event;
    expect(only?.component.getFirstProperty("dtstart")?.getParameter("tzid")).toBe("Europe/Berlin");
    expect(event.startDate.toString()).toBe("2026-03-29T01:00:00");
    expect(event.endDate.toString()).toBe("2026-03-29T05:00:00");
    expect(event.startDate.toJSDate().toISOString()).toBe("2026-03-29T00:00:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2026-03-29T03:00:00.000Z");
    // And back in the autumn: 25 October 2026, 02:00–03:00 happens twice.
    const autumn = parse(
      singleEventCalendar(
        booking({ eventDate: "2026-10-25", startTime: "01:30", timeZone: "Europe/Berlin" }),
      ),
    );
    const fall = eventsOf(autumn)[0]?.event as ICAL.Event;
    expect(fall.endDate.toJSDate().getTime() - fall.startDate.toJSDate().getTime()).toBe(
      3 * 3_600_000,
    );
    expect(fall.endDate.toString()).toBe("2026-10-25T03:30:00");
  });

  it("makes a booking without a start time an all-day event", () => {
    const [only] = eventsOf(parse(singleEventCalendar(booking({ startTime: null }))));
    expect(only?.event.startDate.isDate).toBe(true);
    expect(only?.event.startDate.toString()).toBe("2026-06-20");
    expect(only?.event.endDate.toString()).toBe("2026-06-21");
  });
});

describe("busy days read from an imported calendar", () => {
  const calendar = (...events: string[]) =>
    [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Test//EN",
      "BEGIN:VTIMEZONE",
      "TZID:America/New_York",
      "BEGIN:STANDARD",
      "DTSTART:19701101T020000",
      "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
      "TZOFFSETFROM:-0400",
      "TZOFFSETTO:-0500",
      "END:STANDARD",
      "BEGIN:DAYLIGHT",
      "DTSTART:19700308T020000",
      "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
      "TZOFFSETFROM:-0500",
      "TZOFFSETTO:-0400",
      "END:DAYLIGHT",
      "END:VTIMEZONE",
      ...events.flatMap((e) => ["BEGIN:VEVENT", ...e.split("\n"), "END:VEVENT"]),
      "END:VCALENDAR",
      "",
    ].join("\r\n");
  const window = { from: "2026-07-01", to: "2026-08-31", timeZone: "Asia/Kolkata" };

  it("takes dates only, in the artist's zone, and skips free or cancelled events", () => {
    const text = calendar(
      "UID:1\nSUMMARY:Dentist\nDTSTART;VALUE=DATE:20260710\nDTEND;VALUE=DATE:20260712",
      // 20:00–23:00 in New York is the next morning in India.
      "UID:2\nSUMMARY:Late gig\nDTSTART;TZID=America/New_York:20260715T200000\nDTEND;TZID=America/New_York:20260715T230000",
      "UID:3\nSUMMARY:Free time\nTRANSP:TRANSPARENT\nDTSTART;VALUE=DATE:20260720",
      "UID:4\nSUMMARY:Called off\nSTATUS:CANCELLED\nDTSTART;VALUE=DATE:20260721",
      "UID:5\nSUMMARY:Too early\nDTSTART;VALUE=DATE:20260601",
    );
    expect(busyDaysIn(text, window)).toEqual(["2026-07-10", "2026-07-11", "2026-07-16"]);
  });

  it("expands a repeating event inside the window", () => {
    const text = calendar(
      "UID:w\nSUMMARY:Weekly rehearsal\nDTSTART:20260601T100000Z\nDTEND:20260601T110000Z\nRRULE:FREQ=WEEKLY;COUNT=20",
    );
    const days = busyDaysIn(text, window);
    expect(days[0]).toBe("2026-07-06");
    expect(days).toContain("2026-08-31");
    expect(days).toHaveLength(9);
  });

  it("skips a repeating event that no date matches, keeping the file's other days", () => {
    const never = (uid: string, rule: string) =>
      `UID:${uid}\nDTSTART:20260101T100000Z\nDTEND:20260101T110000Z\nRRULE:${rule}`;
    const text = calendar(
      never("feb-30", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"),
      never("apr-31", "FREQ=HOURLY;BYMONTH=4;BYMONTHDAY=31"),
      never("sec", "FREQ=SECONDLY;BYMONTH=6;BYMONTHDAY=31"),
      "UID:gig\nDTSTART;VALUE=DATE:20260710",
    );
    expect(busyDaysIn(text, window)).toEqual(["2026-07-10"]);
  });

  it("stops expanding when a file's repeating events take too long, and keeps what it read", () => {
    const nevers = Array.from(
      { length: 40 },
      (_, i) =>
        `UID:never-${i}\nDTSTART:20260101T100000Z\nDTEND:20260101T110000Z\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`,
    );
    const text = calendar("UID:gig\nDTSTART;VALUE=DATE:20260710", ...nevers);
    expect(busyDaysIn(text, window)).toEqual(["2026-07-10"]);
  });

  it("still expands a sparse rule that does match: 10 July, every year since 2020", () => {
    const text = calendar(
      "UID:anniversary\nDTSTART:20200710T100000Z\nDTEND:20200710T110000Z\nRRULE:FREQ=DAILY;BYMONTH=7;BYMONTHDAY=10",
    );
    expect(busyDaysIn(text, window)).toEqual(["2026-07-10"]);
  });

  it("refuses what is not a calendar", () => {
    expect(() => busyDaysIn("<html>Sign in</html>", window)).toThrow(/did not return a calendar/);
    expect(() => busyDaysIn("BEGIN:VCALENDAR\r\nBROKEN", window)).toThrow(
      /did not return a calendar/,
    );
  });
});
