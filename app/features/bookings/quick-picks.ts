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
