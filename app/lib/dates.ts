/**
 * The one date module. Calendar dates are plain `YYYY-MM-DD` strings and months `YYYY-MM`;
 * arithmetic on them is done in UTC from the string itself, so no time zone can shift a date.
 * Month and weekday names are hard-coded (not Intl) so the server and the browser render
 * identical text. Instants are converted to and from wall-clock times in a named IANA zone.
 */
import { formatLongDate, MONTH_NAMES, parseDate, utc } from "./date-text";

export type IsoDate = string;

export function todayIn(timeZone: string, now: Date = new Date()): IsoDate {
  return wallClockIn(now, timeZone).date;
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The UTC instant of a wall-clock date and time in `timeZone` (for example an event at 19:30 in
 * Asia/Kolkata). Computed from the zone's offset at that moment; a second pass settles
 * daylight-saving edges.
 */
export function zonedDateTimeToUtc(date: IsoDate, time: string, timeZone: string): Date {
  const [h = 0, mi = 0, s = 0] = time.split(":").map(Number);
  const [y = 0, mo = 1, d = 1] = date.split("-").map(Number);
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  let guess = asUtc - zoneOffsetMs(new Date(asUtc), timeZone);
  guess = asUtc - zoneOffsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

function zoneOffsetMs(at: Date, timeZone: string) {
  const p = wallClockParts(at, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * An en-US date formatter for these options, made once and kept: building one costs far more than
 * using it (it was the largest single cost of rendering an artist profile).
 */
function dateFormatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options);
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", options);
    formatters.set(key, formatter);
  }
  return formatter;
}

/** The wall-clock fields of an instant in a zone: the one place that asks Intl for them. */
function wallClockParts(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    dateFormatter({
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(at)
      .map((p) => [p.type, Number(p.value)]),
  );
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** "Now" as a datetime-local value in the given zone (the session form's default). */
export function nowInZone(timeZone: string, now: Date = new Date()): string {
  return toZonedInputValue(now, timeZone);
}

/** `Nov 21, 2026` in the given zone, the same on the server and in the browser. */
export function formatDay(date: Date | string, timeZone: string) {
  return dateFormatter({ dateStyle: "medium", timeZone }).format(new Date(date));
}

export { formatLongDate, MONTH_NAMES } from "./date-text";
export { formatHours } from "./hours";

/** Is this a real calendar date written `YYYY-MM-DD` (not 2026-13-01, not 9999-99-99)? */
export function isIsoDate(value: string): boolean {
  try {
    // PostgreSQL has no year 0; no date we store is that old anyway.
    return parseDate(value).year >= 1;
  } catch {
    return false;
  }
}

/** A calendar month, `YYYY-MM`. */
export type IsoMonth = string;

/** Sunday first, like US calendars. */
export const WEEKDAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;

const MONTH_RE = /^(\d{4})-(\d{2})$/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function parseMonth(month: IsoMonth): { year: number; month: number } {
  const m = MONTH_RE.exec(month);
  const year = Number(m?.[1]);
  const monthNumber = Number(m?.[2]);
  if (!m || monthNumber < 1 || monthNumber > 12) throw new RangeError(`Invalid month: ${month}`);
  return { year, month: monthNumber };
}

export function isIsoMonth(value: string): boolean {
  const m = MONTH_RE.exec(value);
  return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 12;
}

/** `2026-12-01` → `2026-12`. */
export function monthOf(date: string): IsoMonth {
  parseDate(date);
  return date.slice(0, 7);
}

/** `addMonths("2026-12", 1)` → `2027-01`. */
export function addMonths(month: IsoMonth, n: number): IsoMonth {
  const { year, month: m } = parseMonth(month);
  const total = year * 12 + (m - 1) + n;
  return `${pad(Math.floor(total / 12), 4)}-${pad((total % 12) + 1)}`;
}

export function daysInMonth(month: IsoMonth): number {
  const { year, month: m } = parseMonth(month);
  return utc(year, m, 0).getUTCDate();
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: string): number {
  const { year, month, day } = parseDate(date);
  return utc(year, month - 1, day).getUTCDay();
}

/**
 * The month as weeks of seven days, Sunday first; days outside the month are `null`.
 * Each week has exactly seven entries; a month spans 4 to 6 weeks.
 */
export function monthGrid(month: IsoMonth): (string | null)[][] {
  const first = `${month}-01`;
  const lead = weekdayOf(first);
  const count = daysInMonth(month);
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let day = 1; day <= count; day++) cells.push(`${month}-${pad(day)}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** `2026-12` → `December 2026`. */
export function formatMonth(month: IsoMonth): string {
  const { year, month: m } = parseMonth(month);
  return `${MONTH_NAMES[m - 1]} ${year}`;
}

/** `2026-12-01` → `Tue, Dec 1`. */
export function formatShortDate(date: string): string {
  const { month, day } = parseDate(date);
  const weekday = WEEKDAY_NAMES[weekdayOf(date)] ?? "";
  return `${weekday.slice(0, 3)}, ${(MONTH_NAMES[month - 1] ?? "").slice(0, 3)} ${day}`;
}

/**
 * Where a key moves focus in a day grid (APG date-grid keys): arrows by a day or a week,
 * Home/End to the start/end of the week, PageUp/PageDown by a month (day clamped).
 * Returns `null` for other keys.
 */
export function dateForGridKey(date: string, key: string): string | null {
  const { year, month, day } = parseDate(date);
  const shift = (days: number) => {
    const d = utc(year, month - 1, day + days);
    return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  };
  const shiftMonth = (n: number) => {
    const target = addMonths(date.slice(0, 7), n);
    return `${target}-${pad(Math.min(day, daysInMonth(target)))}`;
  };
  switch (key) {
    case "ArrowLeft":
      return shift(-1);
    case "ArrowRight":
      return shift(1);
    case "ArrowUp":
      return shift(-7);
    case "ArrowDown":
      return shift(7);
    case "Home":
      return shift(-weekdayOf(date));
    case "End":
      return shift(6 - weekdayOf(date));
    case "PageUp":
      return shiftMonth(-1);
    case "PageDown":
      return shiftMonth(1);
    default:
      return null;
  }
}

// ─── Wall-clock times ──────────────────────────────────────────────────────────────────────────

/** `"19:00"` (or `"19:00:00"`) → `"7:00 PM"`: the one way a time of day is written. */
export function formatTime(time: string): string {
  const [h = 0, m = 0] = time.split(":").map(Number);
  const suffix = h >= 12 ? "PM" : "AM";
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, "0")} ${suffix}`;
}

/** A duration in hours as words: 1 → "1 hour", 2.5 → "2.5 hours". */
export function formatDuration(hours: number): string {
  const rounded = Math.round(hours * 10) / 10;
  return `${rounded} ${rounded === 1 ? "hour" : "hours"}`;
}

/** The wall-clock date (`YYYY-MM-DD`) and time (`HH:MM`, 24 h) of an instant in a zone. */
export function wallClockIn(at: Date | string, timeZone: string): { date: IsoDate; time: string } {
  const p = wallClockParts(typeof at === "string" ? new Date(at) : at, timeZone);
  return {
    date: `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`,
    time: `${pad(p.hour)}:${pad(p.minute)}`,
  };
}

/**
 * Short names that the "en-US" locale data writes as an offset ("GMT+5:30"). Fixed here rather
 * than read from another locale, so the server and every browser print the same text.
 */
const KNOWN_ABBREVIATIONS: Record<string, string> = {
  "Asia/Kolkata": "IST",
  "Asia/Calcutta": "IST",
};

/** The zone's short name at that moment, for example "IST", "PST" or "GMT+9". */
export function zoneAbbreviation(timeZone: string, at: Date | string = new Date()): string {
  const known = KNOWN_ABBREVIATIONS[timeZone];
  if (known) return known;
  const part = dateFormatter({ timeZone, timeZoneName: "short" })
    .formatToParts(typeof at === "string" ? new Date(at) : at)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

/**
 * An instant as its wall-clock time in the artist's zone, the same for every viewer:
 * "November 15, 2026, 8:00 PM", with the zone's abbreviation when `withZone` is set.
 */
export function formatWallClock(
  at: Date | string,
  timeZone: string,
  options: { withZone?: boolean } = {},
): string {
  const { date, time } = wallClockIn(at, timeZone);
  const text = `${formatLongDate(date)}, ${formatTime(time)}`;
  return options.withZone ? `${text} ${zoneAbbreviation(timeZone, at)}` : text;
}

/**
 * An instant as a short wall-clock time in a zone, always with the zone's abbreviation:
 * "Nov 21, 7:30 PM IST". The same text on the server and in every browser.
 */
export function formatShortWallClock(at: Date | string, timeZone: string): string {
  const { date, time } = wallClockIn(at, timeZone);
  const { month, day } = parseDate(date);
  const monthName = (MONTH_NAMES[month - 1] ?? "").slice(0, 3);
  return `${monthName} ${day}, ${formatTime(time)} ${zoneAbbreviation(timeZone, at)}`;
}

/** An instant as the value of a datetime-local field ("2026-11-15T20:00") in the given zone. */
export function toZonedInputValue(at: Date | string, timeZone: string): string {
  const { date, time } = wallClockIn(at, timeZone);
  return `${date}T${time}`;
}

/** A datetime-local value ("2026-11-15T20:00") read as a wall-clock time in the given zone. */
export function zonedInputToUtc(local: string, timeZone: string): Date {
  const [date = "", time = ""] = local.split("T");
  return zonedDateTimeToUtc(date, time, timeZone);
}

/** A duration in minutes as words: 60 → "1 hour", 150 → "2.5 hours". */
export function formatMinutes(minutes: number): string {
  return formatDuration(minutes / 60);
}

/**
 * An instant as an ISO 8601 date-time with the zone's offset at that moment
 * ("2026-11-15T20:00:00+05:30"): the artist's wall clock, still one exact instant.
 */
export function isoInZone(at: Date | string, timeZone: string): string {
  const instant = typeof at === "string" ? new Date(at) : at;
  const { date, time } = wallClockIn(instant, timeZone);
  const seconds = pad(instant.getUTCSeconds());
  const minuteStart = Math.floor(instant.getTime() / 60_000) * 60_000;
  const offset = Math.round((Date.parse(`${date}T${time}:00Z`) - minuteStart) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${date}T${time}:${seconds}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
