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

/**
 * The dates part of a form for several artists: quick picks among the days every one of them is
 * free, and each day one of them is not, saying whose ("booked for Anaya Rao").
 */
export function groupFormDates(
  artists: { artistName: string; dates: ReturnType<typeof bookingFormDates> }[],
): { quickPicks: QuickPick[]; blockedDates: Record<string, string>; today: string } {
  const [first, ...rest] = artists;
  if (!first) return { quickPicks: [], blockedDates: {}, today: "" };
  if (rest.length === 0) return first.dates;
  const blockedDates: Record<string, string> = {};
  for (const { artistName, dates } of artists) {
    for (const [date, status] of Object.entries(dates.blockedDates)) {
      const whose = `${status} for ${artistName}`;
      blockedDates[date] = blockedDates[date] ? `${blockedDates[date]}, ${whose}` : whose;
    }
  }
  const everyone = (pick: QuickPick) =>
    rest.every((a) => a.dates.quickPicks.some((p) => p.date === pick.date));
  // The latest of the artists' todays: no artist's past day can be picked.
  const today =
    artists
      .map((a) => a.dates.today)
      .sort()
      .at(-1) ?? first.dates.today;
  return { quickPicks: first.dates.quickPicks.filter(everyone), blockedDates, today };
}
