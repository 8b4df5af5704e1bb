// Kept apart from dates.ts (which re-exports it): pages that only show hours, like a public
// portfolio's figures, then do not load the calendar and time-zone code with it.

/** Minutes as hours with at most one decimal: 90 → "1.5". */
export function formatHours(minutes: number) {
  const hours = Math.round((minutes / 60) * 10) / 10;
  return Number.isInteger(hours) ? String(hours) : hours.toFixed(1);
}
