import { addDays, daysInMonth, type IsoMonth, isIsoMonth, monthOf } from "~/lib/dates";
import type { CalendarView } from "./availability-calendar";

/**
 * The calendar's month and tab from the address (?month=YYYY-MM, ?view=upcoming); a month before
 * the artist's current one shows the current. `until` is the last day a page loads: the next 120
 * days, and all of the month asked for when it reaches further.
 */
export function calendarQueryOf(
  url: URL,
  today: string,
): { month: IsoMonth; view: CalendarView; until: string } {
  const current = monthOf(today);
  const asked = url.searchParams.get("month") ?? "";
  const month = isIsoMonth(asked) && asked > current ? asked : current;
  const view: CalendarView = url.searchParams.get("view") === "upcoming" ? "upcoming" : "calendar";
  const monthEnd = `${month}-${String(daysInMonth(month)).padStart(2, "0")}`;
  const inFourMonths = addDays(today, 120);
  return { month, view, until: inFourMonths > monthEnd ? inFourMonths : monthEnd };
}
