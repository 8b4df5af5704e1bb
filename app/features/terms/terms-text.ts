// Cancellation and payment terms in plain words. Public pages show these, so this file stays
// light: no Intl and nothing but types imported.
import type { CancellationTerms } from "./terms-types";

/** 48 → "48 hours", 168 → "7 days": whole days from 3 days up, hours below. */
function noticeText(hours: number): string {
  if (hours >= 72 && hours % 24 === 0) return `${hours / 24} days`;
  return hours === 1 ? "1 hour" : `${hours} hours`;
}

/** 2500 basis points → "25%", 1250 → "12.5%". */
function percentText(bps: number): string {
  return `${bps / 100}%`;
}

function chargeText(bps: number): string {
  if (bps === 0) return "nothing to pay";
  if (bps >= 10_000) return "the client pays the full total";
  return `the client pays ${percentText(bps)} of the total`;
}

/**
 * One line per band, longest notice first, then the cooling-off and the artist's lines:
 * "60 days or more before: the client pays 10% of the total", …,
 * "Less than 48 hours before: the client pays the full total".
 */
export function policySummary(terms: CancellationTerms): string[] {
  const bands = terms.clientCharges;
  const lines = bands.map((band, i) => {
    const longer = bands[i - 1];
    const from = noticeText(band.minNoticeHours);
    let when: string;
    if (!longer) when = band.minNoticeHours === 0 ? "Any time before" : `${from} or more before`;
    else if (band.minNoticeHours === 0)
      when = `Less than ${noticeText(longer.minNoticeHours)} before`;
    else when = `${from} to ${noticeText(longer.minNoticeHours)} before`;
    return `${when}: ${chargeText(band.chargeBps)}`;
  });
  lines.push(
    `Cancelled within ${noticeText(terms.coolingOffHours)} of agreeing, and at least ` +
      `${noticeText(terms.coolingOffMinNoticeHours)} before the event: nothing to pay`,
    "If the artist cancels: everything paid is returned",
  );
  return lines;
}

/** 3000 → "30% deposit when the booking is agreed"; 0 → "No deposit". */
export function depositText(bps: number): string {
  if (bps === 0) return "No deposit";
  if (bps >= 10_000) return "Full payment when the booking is agreed";
  return `${percentText(bps)} deposit when the booking is agreed`;
}

/** 7 → "Balance due 7 days before the event"; 0 → "Balance due on the day of the event". */
export function balanceDueText(days: number): string {
  if (days === 0) return "Balance due on the day of the event";
  return `Balance due ${days} ${days === 1 ? "day" : "days"} before the event`;
}
