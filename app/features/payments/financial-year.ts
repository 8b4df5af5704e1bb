// India's financial year runs from 1 April to 31 March; which one an instant falls in is judged
// by the calendar in India (IST), so an invoice issued at 00:30 IST on 1 April, still 31 March in
// UTC, belongs to the new year.
import { wallClockIn } from "~/lib/dates";

/** The financial year of an instant as "2026-27" (1 April 2026 to 31 March 2027). */
export function financialYearOf(date: Date, timeZone = "Asia/Kolkata"): string {
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid date");
  const day = wallClockIn(date, timeZone).date;
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  const start = month >= 4 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, "0")}`;
}
