/**
 * "1,234": a count as shown in English. Without Intl on purpose: the first Intl formatter a page
 * makes loads locale data, which cost discovery's filters tens of milliseconds on a phone while
 * the page hydrated.
 */
export function formatCount(count: number): string {
  return String(Math.round(count)).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** "1 booking", "3 bookings": a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
