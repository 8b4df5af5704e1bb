import { addDays, MONTH_NAMES } from "~/lib/dates";

export type QuickPick = { date: string; label: string };

/** Up to six available dates from today on, earliest first, labelled Today, Tomorrow or 'Dec 3'. */
export function quickPickDates(
  entries: { date: string; status: string }[],
  today: string,
  limit = 6,
): QuickPick[] {
  const tomorrow = addDays(today, 1);
  return entries
    .filter((e) => e.status === "available" && e.date >= today)
    .sort((a, b) => a.date.localeCompare(b.date))
    .slice(0, limit)
    .map((e) => {
      const [, month, day] = e.date.split("-");
      const label =
        e.date === today
          ? "Today"
          : e.date === tomorrow
            ? "Tomorrow"
            : `${MONTH_NAMES[Number(month) - 1]?.slice(0, 3)} ${Number(day)}`;
      return { date: e.date, label };
    });
}

/**
 * The dates part of the booking form's data, from the artist's calendar: quick picks among the
 * days they are free, and the days they are not (booked or unavailable), to warn before sending.
 */
export function bookingFormDates(
  entries: { date: string; status: string }[],
  busyDays: Record<string, string>,
  today: string,
): { quickPicks: QuickPick[]; blockedDates: Record<string, string>; today: string } {
  return {
    quickPicks: quickPickDates(
      entries.filter((e) => !busyDays[e.date]),
      today,
    ),
    blockedDates: busyDays,
    today,
  };
}
