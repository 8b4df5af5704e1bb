import { addDays, formatShortDate } from "~/lib/dates";
import type { AvailabilityEntry, AvailabilityStatus } from "./availability";

/** Spec section 9: the upcoming list shows at most 5 days. */
const UPCOMING_LIMIT = 5;

type UpcomingEvent = {
  date: string;
  status: Extract<AvailabilityStatus, "available" | "booked">;
  label: string;
};

/** 'Today', 'Tomorrow', 'Yesterday', otherwise weekday and date such as 'Tue, Dec 1'. */
export function relativeDayLabel(date: string, today: string): string {
  if (date === today) return "Today";
  if (date === addDays(today, 1)) return "Tomorrow";
  if (date === addDays(today, -1)) return "Yesterday";
  return formatShortDate(date);
}

/**
 * 'Upcoming Events': at most 5 days from today on that are booked or available, earliest first
 * (unavailable days are not listed).
 */
export function upcomingEvents(
  entries: readonly AvailabilityEntry[],
  today: string,
): UpcomingEvent[] {
  const byDate = new Map<string, UpcomingEvent["status"]>();
  for (const entry of entries) {
    if (entry.date < today) continue;
    if (entry.status === "available" || entry.status === "booked") {
      byDate.set(entry.date, entry.status);
    } else {
      // A later entry for the same date replaces an earlier one.
      byDate.delete(entry.date);
    }
  }
  return [...byDate]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, UPCOMING_LIMIT)
    .map(([date, status]) => ({ date, status, label: relativeDayLabel(date, today) }));
}
