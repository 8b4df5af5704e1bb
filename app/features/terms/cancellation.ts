// What a cancellation costs, from the agreed terms: the one function behind both "If you cancel
// now" and the cancellation itself, so nobody is ever shown a figure other than the one applied.

import { shareOf } from "~/lib/money";
import type { CancellationTerms, ChargeBand } from "./terms-types";

const HOUR_MS = 3_600_000;

export type Canceller = "client" | "artist";

export type CancellationInput = {
  cancellation: CancellationTerms;
  totalPaise: number;
  /** What the client has paid so far: 0 to the total. */
  paidPaise: number;
  acceptedAt: Date;
  eventStartAt: Date;
  canceller: Canceller;
  /** When the cancellation happens (or would happen, for "If you cancel now"). */
  at: Date;
};

export type CancellationOutcome = {
  /** Whole hours from the cancellation to the event start, rounded down; 0 once it has begun. */
  noticeHours: number;
  /** The charge applied: the band's, or 0 under cooling-off or when the artist cancels. */
  chargeBps: number;
  /** The client's charge in paise; it may exceed what was paid, and only what was paid is kept. */
  chargePaise: number;
  refundPaise: number;
  keptPaise: number;
  /** The client cancelled within the cooling-off window with enough notice: charged nothing. */
  coolingOff: boolean;
  /** The band the notice falls in for a client's cancellation; null when the artist cancels. */
  band: ChargeBand | null;
};

/**
 * The outcome of cancelling an agreement at `at`.
 *
 * Notice is counted in whole hours rounded down, so a band's lower bound holds exactly: 48 hours'
 * notice means at least 48 × 60 minutes, and 47 hours 59 minutes falls in the band below.
 * Cooling-off applies when the client cancels at most `coolingOffHours` after accepting (24 hours
 * to the millisecond still counts) and with at least `coolingOffMinNoticeHours` of notice.
 * Refund = paid − charge, never below 0; the artist keeps the rest of what was paid. Nobody is
 * asked to pay more after cancelling. Programmer errors throw a TypeError: amounts that are not
 * whole paise, paid above the total, an invalid date, a cancellation before the acceptance,
 * malformed terms.
 */
export function cancellationOutcome(input: CancellationInput): CancellationOutcome {
  const { cancellation, totalPaise, paidPaise, canceller } = input;
  const acceptedAt = timeOf(input.acceptedAt, "acceptedAt");
  const eventStartAt = timeOf(input.eventStartAt, "eventStartAt");
  const at = timeOf(input.at, "at");
  if (!Number.isSafeInteger(totalPaise) || totalPaise < 0)
    throw new TypeError(`totalPaise must be whole paise, 0 or more: ${totalPaise}`);
  if (!Number.isSafeInteger(paidPaise) || paidPaise < 0 || paidPaise > totalPaise)
    throw new TypeError(`paidPaise must be whole paise from 0 to the total: ${paidPaise}`);
  if (at < acceptedAt) throw new TypeError("A cancellation cannot come before the acceptance");
  if (canceller !== "client" && canceller !== "artist")
    throw new TypeError(`Unknown canceller: ${String(canceller)}`);
  checkTerms(cancellation);

  const noticeHours = Math.max(0, Math.floor((eventStartAt - at) / HOUR_MS));
  if (canceller === "artist") {
    return {
      noticeHours,
      chargeBps: 0,
      chargePaise: 0,
      refundPaise: paidPaise,
      keptPaise: 0,
      coolingOff: false,
      band: null,
    };
  }
  // checkTerms made sure the last band starts at 0 notice, so some band always matches.
  const band = cancellation.clientCharges.find(
    (b) => noticeHours >= b.minNoticeHours,
  ) as ChargeBand;
  const coolingOff =
    at - acceptedAt <= cancellation.coolingOffHours * HOUR_MS &&
    noticeHours >= cancellation.coolingOffMinNoticeHours;
  const chargeBps = coolingOff ? 0 : band.chargeBps;
  const chargePaise = shareOf(totalPaise, chargeBps);
  const keptPaise = Math.min(paidPaise, chargePaise);
  return {
    noticeHours,
    chargeBps,
    chargePaise,
    refundPaise: paidPaise - keptPaise,
    keptPaise,
    coolingOff,
    band: { ...band },
  };
}

function timeOf(date: Date, name: string): number {
  const time = date instanceof Date ? date.getTime() : Number.NaN;
  if (Number.isNaN(time)) throw new TypeError(`${name} is not a valid date`);
  return time;
}

/** Bands longest notice first, strictly, down to a last band at 0; charges 0 to 10000 bps. */
function checkTerms(terms: CancellationTerms): void {
  const bands = terms.clientCharges;
  const ordered = bands.every(
    (band, i) =>
      Number.isSafeInteger(band.minNoticeHours) &&
      band.minNoticeHours >= 0 &&
      Number.isInteger(band.chargeBps) &&
      band.chargeBps >= 0 &&
      band.chargeBps <= 10_000 &&
      (i === 0 || band.minNoticeHours < (bands[i - 1]?.minNoticeHours ?? 0)),
  );
  if (!ordered || bands.at(-1)?.minNoticeHours !== 0)
    throw new TypeError("Cancellation bands must run from the longest notice down to 0 hours");
  for (const hours of [terms.coolingOffHours, terms.coolingOffMinNoticeHours]) {
    if (!Number.isSafeInteger(hours) || hours < 0)
      throw new TypeError(`Cooling-off hours must be whole, 0 or more: ${hours}`);
  }
}
