import ICAL from "ical.js";
import { addDays, wallClockIn, zonedDateTimeToUtc } from "~/lib/dates";

/**
 * The busy days an iCalendar file says, as calendar dates in the artist's zone, between `from`
 * and `to` (inclusive). Only dates are kept: no title, description, place or attendee leaves this
 * function (decision 016). An event that is cancelled or marked free (TRANSP:TRANSPARENT) does not
 * make a day busy; a timed event makes busy every day it touches in the artist's zone; an all-day
 * event its dates. Repeating events are expanded (at most MAX_OCCURRENCES each), within the limits
 * below: a rule no date can match is skipped, not followed forever.
 *
 * The server runs it in a worker of its own (`busy-days.worker.ts`, decision 041); it is also
 * safe to call in-process: its work is linear in the file, bounded by the limits below, and it
 * leaves nothing behind (the zones a file defines are read from that file only, never registered
 * in ical.js's process-wide TimezoneService).
 */

export const NOT_A_CALENDAR =
  "This address did not return a calendar. Use the calendar's iCal (.ics) address.";

const MAX_OCCURRENCES = 2_000;
const MAX_DAYS_PER_EVENT = 400;
/**
 * Candidate times one repeating event, or one time zone's rules, may test. A real series needs a
 * few per occurrence; 20,000 tests of a daily rule take about 0.25 s on this project's machine.
 */
const MAX_CHECKS_PER_SERIES = 20_000;
/** Time all of one file's repeating events and zones may take to expand; what is left is skipped. */
const EXPANSION_BUDGET_MS = 1_000;

/** Thrown inside ical.js when a series or zone has used up its allowance (see `reading` below). */
class OverBudget extends Error {
  override readonly name = "OverBudget";
}

/**
 * The allowance of the file being read (null outside `busyDaysIn`): the deadline of its
 * expansions, and the tests left to the series or zone being expanded (null between them).
 */
let reading: { deadline: number; checks: number; checksLeft: number | null } | null = null;

// ical.js's RecurIterator tests candidate times until one passes the rule's BY parts, with no end
// for a rule that no date passes (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30 froze the server for good,
// in an event's RRULE and in a VTIMEZONE's). Every test now counts against the allowance, and the
// file's deadline is looked at every 256 tests; running out throws, and the caller skips that
// series, or reads that zone's times without it.
const recurIterator = ICAL.RecurIterator.prototype;
const checkRules = recurIterator.check_contracting_rules;
recurIterator.check_contracting_rules = function (this: ICAL.RecurIterator) {
  if (reading) {
    reading.checks++;
    if (reading.checksLeft !== null && --reading.checksLeft < 0) throw new OverBudget();
    if (reading.checks % 256 === 0 && performance.now() > reading.deadline) throw new OverBudget();
  }
  return checkRules.call(this);
};

/** Runs `work` with an allowance of MAX_CHECKS_PER_SERIES tests. */
function withinAllowance<T>(work: () => T): T {
  if (reading) reading.checksLeft = MAX_CHECKS_PER_SERIES;
  try {
    return work();
  } finally {
    if (reading) reading.checksLeft = null;
  }
}

export class NotACalendar extends Error {
  override readonly name = "NotACalendar";
  constructor() {
    super(NOT_A_CALENDAR);
  }
}

function parse(text: string): ICAL.Component {
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) throw new NotACalendar();
  try {
    const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
    if (root.name !== "vcalendar") throw new NotACalendar();
    return root;
  } catch {
    throw new NotACalendar();
  }
}

const zoneNames = new Map<string, boolean>();

/** Whether `name` is a zone this server knows (an IANA name such as Europe/Berlin). */
function isKnownZone(name: string): boolean {
  let known = zoneNames.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    if (zoneNames.size < 1_000) zoneNames.set(name, known);
  }
  return known;
}

/**
 * The file's own zones, each expanded once up front within an allowance: a zone whose rules run
 * past it (a rule no date matches) is left out, and its times are read as if it were not defined.
 * The root then finds a zone in this map instead of searching the file for it on every time
 * (ical.js's search walks all of the file's components for a zone it lacks: quadratic).
 */
function readZones(root: ICAL.Component, untilYear: number) {
  const zones = new Map<string, ICAL.Timezone>();
  for (const component of root.getAllSubcomponents("vtimezone")) {
    const tzid = component.getFirstPropertyValue("tzid");
    if (typeof tzid !== "string" || zones.has(tzid)) continue;
    try {
      const zone = new ICAL.Timezone({ component, tzid });
      withinAllowance(() => zone.utcOffset(ICAL.Time.fromDateString(`${untilYear}-12-31`)));
      zones.set(tzid, zone);
    } catch {
      // A broken or runaway definition: its times are read by their zone's name (below).
    }
  }
  root.getTimeZoneByID = (tzid: string) => zones.get(tzid) ?? (null as unknown as ICAL.Timezone);
}

/**
 * The instant of a time from the file. A time in a zone the file defines, or in UTC, is read by
 * ical.js; one the file gives without a usable zone (floating, or a TZID it does not define) is a
 * wall clock in the zone its TZID names when that is a real zone, otherwise in the artist's. Each
 * zone's offset is asked of Intl once per quarter hour of wall clock (zones change on a quarter
 * hour): asking for every time of a large file cost more than reading it.
 */
function instantFinder(artistZone: string) {
  const offsets = new Map<string, number>();
  return (time: ICAL.Time, tzid: unknown): Date => {
    if (time.zone !== ICAL.Timezone.localTimezone) return time.toJSDate();
    const zone = typeof tzid === "string" && isKnownZone(tzid) ? tzid : artistZone;
    const wall = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
    const slot = Math.floor(wall / QUARTER_HOUR);
    const key = `${zone} ${slot}`;
    let offset = offsets.get(key);
    if (offset === undefined) {
      const start = new Date(slot * QUARTER_HOUR).toISOString();
      offset =
        zonedDateTimeToUtc(start.slice(0, 10), start.slice(11, 16), zone).getTime() -
        slot * QUARTER_HOUR;
      offsets.set(key, offset);
    }
    return new Date(wall + offset);
  };
}

const QUARTER_HOUR = 15 * 60_000;

/** Calendar dates from `start` to the day before `endExclusive`. */
function datesBetween(start: string, endExclusive: string) {
  const dates: string[] = [];
  for (let d = start; d < endExclusive && dates.length < MAX_DAYS_PER_EVENT; d = addDays(d, 1))
    dates.push(d);
  return dates;
}

/** The TZID parameters of an event's start and end (the end's is the start's when it has none). */
function zoneNamesOf(component: ICAL.Component) {
  const start = component.getFirstProperty("dtstart")?.getParameter("tzid");
  const end = component.getFirstProperty("dtend")?.getParameter("tzid") ?? start;
  return { start, end };
}

/** The artist's calendar date of instants, the zone's offset asked of Intl once per quarter hour. */
function dateFinder(timeZone: string) {
  const offsets = new Map<number, number>();
  return (at: Date): string => {
    const slot = Math.floor(at.getTime() / QUARTER_HOUR);
    let offset = offsets.get(slot);
    if (offset === undefined) {
      const { date, time } = wallClockIn(new Date(slot * QUARTER_HOUR), timeZone);
      offset = Date.parse(`${date}T${time}:00Z`) - slot * QUARTER_HOUR;
      offsets.set(slot, offset);
    }
    return new Date(at.getTime() + offset).toISOString().slice(0, 10);
  };
}

type Window = {
  from: string;
  to: string;
  timeZone: string;
  dateOf: (at: Date) => string;
  instantOf: (time: ICAL.Time, tzid: unknown) => Date;
};

function daysOf(
  start: ICAL.Time,
  end: ICAL.Time | null,
  zones: { start: unknown; end: unknown },
  window: Window,
): string[] {
  if (start.isDate) {
    const first = start.toString().slice(0, 10);
    const last = end?.isDate ? end.toString().slice(0, 10) : addDays(first, 1);
    return datesBetween(first, last > first ? last : addDays(first, 1));
  }
  const from = window.instantOf(start, zones.start);
  const to = end ? window.instantOf(end, zones.end) : from;
  const first = window.dateOf(from);
  // An event ending at midnight does not make the next day busy.
  const lastInstant = to.getTime() > from.getTime() ? new Date(to.getTime() - 1) : from;
  const last = window.dateOf(lastInstant);
  return datesBetween(first, addDays(last, 1));
}

const upper = (component: ICAL.Component, name: string) =>
  String(component.getFirstPropertyValue(name) ?? "").toUpperCase();

export function busyDaysIn(
  text: string,
  window: { from: string; to: string; timeZone: string },
): string[] {
  const root = parse(text);
  reading = { deadline: performance.now() + EXPANSION_BUDGET_MS, checks: 0, checksLeft: null };
  try {
    readZones(root, Number(window.to.slice(0, 4)) + 1);
    return busyDaysOf(root, {
      ...window,
      dateOf: dateFinder(window.timeZone),
      instantOf: instantFinder(window.timeZone),
    });
  } finally {
    reading = null;
  }
}

function busyDaysOf(root: ICAL.Component, window: Window) {
  const busy = new Set<string>();
  const windowStart = ICAL.Time.fromDateString(addDays(window.from, -1));
  const windowEnd = ICAL.Time.fromDateString(addDays(window.to, 1));
  // Dates two days outside the window: an event beyond them touches no day of it in any zone.
  const before = addDays(window.from, -2);
  const after = addDays(window.to, 2);
  const keep = (dates: string[]) => {
    for (const d of dates) if (d >= window.from && d <= window.to) busy.add(d);
  };
  const events = root.getAllSubcomponents("vevent");
  // Each series' exceptions (RECURRENCE-ID), found once by UID: ical.js would otherwise search
  // the whole file for them for every event (quadratic: a 1 MB file took 12 s, 5 MB minutes).
  const exceptions = new Map<string, ICAL.Component[]>();
  for (const component of events) {
    if (!component.hasProperty("recurrence-id")) continue;
    const uid = String(component.getFirstPropertyValue("uid") ?? "");
    const list = exceptions.get(uid);
    if (list) list.push(component);
    else exceptions.set(uid, [component]);
  }
  for (const component of events) {
    if (upper(component, "status") === "CANCELLED" || upper(component, "transp") === "TRANSPARENT")
      continue;
    // An exception to a repeating event is handled by its series' expansion below.
    if (component.hasProperty("recurrence-id")) continue;
    try {
      const uid = String(component.getFirstPropertyValue("uid") ?? "");
      const event = new ICAL.Event(component, { exceptions: exceptions.get(uid) ?? [] });
      if (!event.startDate) continue;
      if (!event.isRecurring()) {
        // Far from the window (in any zone) it cannot touch it; its zone need not be worked out.
        const day = event.startDate.toString().slice(0, 10);
        if (day > after) continue;
        const endDay = (event.endDate ?? event.startDate).toString().slice(0, 10);
        if (endDay < before) continue;
        keep(daysOf(event.startDate, event.endDate, zoneNamesOf(component), window));
        continue;
      }
      if (reading && performance.now() > reading.deadline) continue;
      withinAllowance(() => {
        const occurrences = event.iterator();
        for (let i = 0; i < MAX_OCCURRENCES; i++) {
          const next = occurrences.next();
          if (!next || next.compare(windowEnd) > 0) break;
          const details = event.getOccurrenceDetails(next);
          if (details.endDate.compare(windowStart) < 0) continue;
          const item = details.item.component;
          if (upper(item, "status") === "CANCELLED") continue;
          keep(daysOf(details.startDate, details.endDate, zoneNamesOf(item), window));
        }
      });
    } catch {
      // One unreadable event (or a series over its allowance) does not make the whole calendar
      // unreadable.
    }
  }
  return [...busy].sort();
}
