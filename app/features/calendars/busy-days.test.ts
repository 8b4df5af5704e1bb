import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { addDays } from "~/lib/dates";
import { runIsolated } from "~/lib/isolated.server";
import { SAFE_FETCH_DEFAULTS } from "~/lib/safe-fetch.server";
import { busyDaysIn } from "./busy-days";
import type { BusyDaysInput, BusyDaysOutput } from "./busy-days.worker";
import { READ_LIMITS } from "./calendars.constants";

/** Files that once hung the server, grew its memory or leaked between artists (found by an outside review). */

const calendar = (...parts: string[][]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Test//EN",
    ...parts.flat(),
    "END:VCALENDAR",
    "",
  ].join("\r\n");

const zone = (tzid: string, offset: string, rule?: string) => [
  "BEGIN:VTIMEZONE",
  `TZID:${tzid}`,
  "BEGIN:STANDARD",
  "DTSTART:19700101T000000",
  ...(rule ? [`RRULE:${rule}`] : []),
  `TZOFFSETFROM:${offset}`,
  `TZOFFSETTO:${offset}`,
  "END:STANDARD",
  "END:VTIMEZONE",
];

const event = (uid: string, ...lines: string[]) => [
  "BEGIN:VEVENT",
  `UID:${uid}`,
  ...lines,
  "END:VEVENT",
];

/** Reads a file as the server does: in a worker of its own, within the app's limits. */
const readIsolated = (input: BusyDaysInput) =>
  runIsolated<BusyDaysOutput>(
    new URL("./busy-days.worker.ts", import.meta.url),
    input,
    READ_LIMITS,
  );

/** `n` one-hour events over the days of 2027, about 170 bytes each. */
function manyEvents(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const day = addDays("2027-01-01", i % 365).replaceAll("-", "");
    return event(
      `event-${i}@example.com`,
      "DTSTAMP:20260101T000000Z",
      `DTSTART:${day}T100000Z`,
      `DTEND:${day}T110000Z`,
      `SUMMARY:Rehearsal ${i} with the band`,
    );
  });
}

describe("busy days: hostile calendars", () => {
  it("reads a 394-byte calendar whose zone rule no date matches (it hung the server for good)", async () => {
    const text = calendar(
      zone("Never", "+0100", "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"),
      event("a", "DTSTART;TZID=Never:20270106T100000", "DTEND;TZID=Never:20270106T110000"),
    );
    expect(text.length).toBeLessThanOrEqual(394);
    const window = { from: "2026-12-01", to: "2027-12-31", timeZone: "Europe/Berlin" };
    // The zone is left out after its allowance: its times read as the artist's wall clock.
    expect(await readIsolated({ text, window })).toEqual({ ok: true, dates: ["2027-01-06"] });
  });

  it("reads a 5 MB calendar of 30,800 events within its limits (its parse grew quadratically: 2 MB took 44 s)", async () => {
    const text = calendar(...manyEvents(30_800));
    expect(text.length).toBeGreaterThan(SAFE_FETCH_DEFAULTS.maxBytes - 100_000);
    expect(text.length).toBeLessThanOrEqual(SAFE_FETCH_DEFAULTS.maxBytes);
    const window = { from: "2027-01-01", to: "2027-12-31", timeZone: "Asia/Kolkata" };
    const read = await readIsolated({ text, window });
    expect(read).toMatchObject({ ok: true });
    expect(read.ok && read.dates.length).toBe(365);
  }, 30_000);
});

describe("busy days: nothing stays between two calendars", () => {
  const window = { from: "2027-01-01", to: "2027-01-31", timeZone: "Europe/Berlin" };
  // An artist's own zone named like a real one, two hours ahead of UTC all year.
  const bogus = calendar(
    zone("Europe/Berlin", "+0200"),
    event(
      "mine",
      "DTSTART;TZID=Europe/Berlin:20270110T003000",
      "DTEND;TZID=Europe/Berlin:20270110T004500",
    ),
  );
  // Another artist's file names the zone without defining it: the real Europe/Berlin.
  const other = calendar(
    event(
      "theirs",
      "DTSTART;TZID=Europe/Berlin:20270106T003000",
      "DTEND;TZID=Europe/Berlin:20270106T004500",
    ),
  );

  it("one file's zone does not change how another file's same zone name is read", () => {
    ICAL.TimezoneService.get("UTC"); // the registry fills in its defaults on first use
    const zonesBefore = ICAL.TimezoneService.count;
    // Other test files in this worker may have registered zones (tests share a module graph):
    // what matters is that reading leaves the registry as it found it.
    const berlinBefore = ICAL.TimezoneService.get("Europe/Berlin");
    expect(busyDaysIn(other, window)).toEqual(["2027-01-06"]);
    // The file's own definition counts for its own times: 00:30 at +02:00 is 23:30 in Berlin.
    expect(busyDaysIn(bogus, window)).toEqual(["2027-01-09"]);
    expect(busyDaysIn(other, window)).toEqual(["2027-01-06"]);
    expect(ICAL.TimezoneService.get("Europe/Berlin")).toBe(berlinBefore);
    expect(ICAL.TimezoneService.count).toBe(zonesBefore);
  });

  it("reads a time in a zone the file names but does not define in that zone, else in the artist's", () => {
    const text = calendar(
      // 20:00 in New York is 06:30 the next morning in India.
      event(
        "ny",
        "DTSTART;TZID=America/New_York:20270115T200000",
        "DTEND;TZID=America/New_York:20270115T210000",
      ),
      // A name no zone has, and a floating time: the artist's wall clock.
      event(
        "odd",
        "DTSTART;TZID=Somewhere Else:20270120T233000",
        "DTEND;TZID=Somewhere Else:20270120T234500",
      ),
      event("floating", "DTSTART:20270125T233000", "DTEND:20270125T234500"),
    );
    expect(busyDaysIn(text, { ...window, timeZone: "Asia/Kolkata" })).toEqual([
      "2027-01-16",
      "2027-01-20",
      "2027-01-25",
    ]);
  });

  it("still reads zones defined since 1601 (Outlook) and a series' own exceptions only", () => {
    const outlook = [
      "BEGIN:VTIMEZONE",
      "TZID:W. Europe Standard Time",
      "BEGIN:STANDARD",
      "DTSTART:16010101T030000",
      "TZOFFSETFROM:+0200",
      "TZOFFSETTO:+0100",
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
      "END:STANDARD",
      "BEGIN:DAYLIGHT",
      "DTSTART:16010101T020000",
      "TZOFFSETFROM:+0100",
      "TZOFFSETTO:+0200",
      "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
      "END:DAYLIGHT",
      "END:VTIMEZONE",
    ];
    const tz = "TZID=W. Europe Standard Time";
    const text = calendar(
      outlook,
      // 23:30 summer time in Berlin (UTC+2) is 03:00 the next day in India.
      event("late", `DTSTART;${tz}:20270715T233000`, `DTEND;${tz}:20270715T234500`),
      // Weekly on Mondays 5, 12, 19 July; the 12th moved to the 13th; another series' exception
      // (same date, other UID) changes nothing here.
      event(
        "weekly",
        `DTSTART;${tz}:20270705T100000`,
        `DTEND;${tz}:20270705T110000`,
        "RRULE:FREQ=WEEKLY;COUNT=3",
      ),
      event(
        "weekly",
        `RECURRENCE-ID;${tz}:20270712T100000`,
        `DTSTART;${tz}:20270713T100000`,
        `DTEND;${tz}:20270713T110000`,
      ),
      event(
        "other",
        `RECURRENCE-ID;${tz}:20270719T100000`,
        `DTSTART;${tz}:20270728T100000`,
        `DTEND;${tz}:20270728T110000`,
      ),
    );
    expect(
      busyDaysIn(text, { from: "2027-07-01", to: "2027-07-31", timeZone: "Asia/Kolkata" }),
    ).toEqual(["2027-07-05", "2027-07-13", "2027-07-16", "2027-07-19"]);
  });
});
