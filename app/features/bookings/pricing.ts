// Booking values and the price estimate: plain code shared by the form and the server (no Zod,
// so the public profile that shows the booking form stays light).
import { EVENT_TYPES } from "~db/enums";

export { EVENT_TYPES };

type EventType = (typeof EVENT_TYPES)[number];
export const DEFAULT_EVENT_TYPE: EventType = "Live Show";
export const DURATION_MIN = 0.5;
export const DURATION_MAX = 12;

/** hours × the artist's hourly rate, or ₹150 per hour without one; two decimals. */
export function estimateTotal(hours: number, hourlyRate: number | null): number {
  const rate = hourlyRate ?? 150;
  return Math.round(hours * rate * 100) / 100;
}

const rupees = new Intl.NumberFormat("en-IN", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatRupees(amount: number) {
  return `₹${rupees.format(amount)}`;
}
