import type { AvailabilityEntry, BusyStatus } from "./availability";

/**
 * What a calendar shows for each day: the artist's marks, with every day the booking rule refuses
 * (`getBusyDays`: marked booked or unavailable, a confirmed booking, busy in an imported calendar)
 * shown as booked or unavailable, never as available or blank. A mark the rule overrules (marked
 * available, busy in an imported calendar) keeps no notes; a day the rule alone makes busy is
 * `unmarked`. `busyIn` (the artist's own page only) names the imported calendars of each day.
 */
export function shownDays(
  marks: readonly AvailabilityEntry[],
  busy: Readonly<Record<string, BusyStatus>>,
  busyIn: Readonly<Record<string, string[]>> = {},
): AvailabilityEntry[] {
  const days = new Map<string, AvailabilityEntry>();
  for (const mark of marks) {
    const ruled = busy[mark.date];
    days.set(
      mark.date,
      ruled && ruled !== mark.status ? { date: mark.date, status: ruled, notes: null } : mark,
    );
  }
  for (const [date, status] of Object.entries(busy))
    if (!days.has(date)) days.set(date, { date, status, notes: null, unmarked: true });
  for (const [date, hosts] of Object.entries(busyIn)) {
    const day = days.get(date);
    if (day && hosts.length > 0) days.set(date, { ...day, busyIn: hosts });
  }
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}
