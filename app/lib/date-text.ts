// Kept apart from dates.ts (which re-exports it): pages that only show a date, like discovery's
// "Available on" cards, then do not load the calendar and time-zone code with it.

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** A UTC midnight: arithmetic on calendar dates never meets a time zone. */
export function utc(year: number, monthIndex: number, day: number): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  return d;
}

/** `YYYY-MM-DD` as numbers; throws a RangeError for anything else or an impossible day. */
export function parseDate(date: string): { year: number; month: number; day: number } {
  const m = DATE_RE.exec(date);
  if (!m) throw new RangeError(`Invalid date: ${date}`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = utc(year, month - 1, day);
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) {
    throw new RangeError(`Invalid date: ${date}`);
  }
  return { year, month, day };
}

/** `2026-12-01` → `December 1, 2026`. */
export function formatLongDate(date: string): string {
  const { year, month, day } = parseDate(date);
  return `${MONTH_NAMES[month - 1]} ${day}, ${year}`;
}
