import ICAL from "ical.js";
import { addDays, wallClockIn } from "~/lib/dates";

/**
 * The busy days an iCalendar file says, as calendar dates in the artist's zone, between `from`
 * and `to` (inclusive). Only dates are kept: no title, description, place or attendee leaves this
 * function (decision 016). An event that is cancelled or marked free (TRANSP:TRANSPARENT) does not
 * make a day busy; a timed event makes busy every day it touches in the artist's zone; an all-day
 * event its dates. Repeating events are expanded (at most MAX_OCCURRENCES each), within the limits
 * below: a rule no date can match is skipped, not followed forever.
 */

export const NOT_A_CALENDAR =
  "This address did not return a calendar. Use the calendar's iCal (.ics) address.";

const MAX_OCCURRENCES = 2_000;
const MAX_DAYS_PER_EVENT = 400;
/**
 * Candidate times one repeating event may test against its rule. A real series needs a few per
 * occurrence; 20,000 tests of a daily rule take about 0.25 s on this project's machine.
 */
export const MAX_CHECKS_PER_SERIES = 20_000;
/** Time all of one file's repeating events may take to expand; the series left are skipped. */
const EXPANSION_BUDGET_MS = 1_000;

/** Thrown inside ical.js when a series has used up its allowance (see `series` below). */
class OverBudget extends Error {
  override readonly name = "OverBudget";
}

/** The allowance of the series being expanded; null outside an expansion. */
let series: { checksLeft: number; deadline: number } | null = null;

// ical.js's RecurIterator tests candidate times until one passes the rule's BY parts, with no end
// for a rule that no date passes (FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30 froze the server for good).
// Every test now counts against the series' allowance, and the file's deadline is looked at every
// 256 tests; running out throws, and the caller skips that series.
const recurIterator = ICAL.RecurIterator.prototype;
const checkRules = recurIterator.check_contracting_rules;
recurIterator.check_contracting_rules = function (this: ICAL.RecurIterator) {
  if (series) {
    series.checksLeft--;
    if (series.checksLeft < 0) throw new OverBudget();
    if (series.checksLeft % 256 === 0 && performance.now() > series.deadline)
      throw new OverBudget();
  }
  return checkRules.call(this);
};

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

/** Calendar dates from `start` to the day before `endExclusive`. */
function datesBetween(start: string, endExclusive: string) {
  const dates: string[] = [];
  for (let d = start; d < endExclusive && dates.length < MAX_DAYS_PER_EVENT; d = addDays(d, 1))
    dates.push(d);
  return dates;
}

function daysOf(start: ICAL.Time, end: ICAL.Time | null, timeZone: string): string[] {
  if (start.isDate) {
    const first = start.toString().slice(0, 10);
    const last = end?.isDate ? end.toString().slice(0, 10) : addDays(first, 1);
    return datesBetween(first, last > first ? last : addDays(first, 1));
  }
  const from = start.toJSDate();
  const to = end ? end.toJSDate() : from;
  const first = wallClockIn(from, timeZone).date;
  // An event ending at midnight does not make the next day busy.
  const lastInstant = to.getTime() > from.getTime() ? new Date(to.getTime() - 1) : from;
  const last = wallClockIn(lastInstant, timeZone).date;
  return datesBetween(first, addDays(last, 1));
}

export function busyDaysIn(
  text: string,
  window: { from: string; to: string; timeZone: string },
): string[] {
  const root = parse(text);
  // Times given in the file's own zones are read with the file's own definitions of them.
  for (const zone of root.getAllSubcomponents("vtimezone")) {
    try {
      ICAL.TimezoneService.register(zone);
    } catch {
      // A broken zone definition: its times are read as floating.
    }
  }
  const busy = new Set<string>();
  const windowStart = ICAL.Time.fromDateString(addDays(window.from, -1));
  const windowEnd = ICAL.Time.fromDateString(addDays(window.to, 1));
  const deadline = performance.now() + EXPANSION_BUDGET_MS;
  const keep = (dates: string[]) => {
    for (const d of dates) if (d >= window.from && d <= window.to) busy.add(d);
  };
  for (const component of root.getAllSubcomponents("vevent")) {
    const status = String(component.getFirstPropertyValue("status") ?? "").toUpperCase();
    const transp = String(component.getFirstPropertyValue("transp") ?? "").toUpperCase();
    if (status === "CANCELLED" || transp === "TRANSPARENT") continue;
    try {
      const event = new ICAL.Event(component);
      if (!event.startDate) continue;
      // An exception to a repeating event is handled by its series' expansion below.
      if (component.hasProperty("recurrence-id")) continue;
      if (!event.isRecurring()) {
        keep(daysOf(event.startDate, event.endDate, window.timeZone));
        continue;
      }
      if (performance.now() > deadline) continue;
      series = { checksLeft: MAX_CHECKS_PER_SERIES, deadline };
      const occurrences = event.iterator();
      for (let i = 0; i < MAX_OCCURRENCES; i++) {
        const next = occurrences.next();
        if (!next || next.compare(windowEnd) > 0) break;
        const details = event.getOccurrenceDetails(next);
        if (details.endDate.compare(windowStart) < 0) continue;
        const item = details.item.component;
        const itemStatus = String(item.getFirstPropertyValue("status") ?? "").toUpperCase();
        if (itemStatus === "CANCELLED") continue;
        keep(daysOf(details.startDate, details.endDate, window.timeZone));
      }
    } catch {
      // One unreadable event (or a series over its allowance) does not make the whole calendar
      // unreadable.
    } finally {
      series = null;
    }
  }
  return [...busy].sort();
}
