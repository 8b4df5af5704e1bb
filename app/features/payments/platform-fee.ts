// The platform's fee and the tax withheld on what an artist keeps from a booking: the one place
// these parts are computed, so the split, the ledger and the fee invoice never disagree
// (docs/decisions/051-fees-and-refund-plan.md).

import { assertPaise, type Paise, shareOf } from "~/lib/money";

export type FeeRates = {
  /** The platform's commission on the kept amount, in basis points (1000 = 10 %). */
  commissionBps: number;
  /** GST on the commission, in basis points of the commission. */
  gstBps: number;
  /** TDS withheld on the gross kept amount, in basis points; 0 when it does not apply. */
  tdsBps: number;
};

export type PlatformFee = {
  commissionPaise: Paise;
  gstPaise: Paise;
  tdsPaise: Paise;
  /** What the artist receives: the kept amount less the commission, GST and TDS. */
  artistNetPaise: Paise;
};

/** Commission 10 % (money-and-terms §5.3), GST 18 % on it, no TDS until the caller says so. */
export const DEFAULT_FEE_RATES: Readonly<FeeRates> = Object.freeze({
  commissionBps: 1000,
  gstBps: 1800,
  tdsBps: 0,
});

// TDS u/s 194-O, 0.1 % of the gross (§5.4): over ₹5 lakh a financial year; the caller decides.
export const TDS_194O_BPS = 10;

/**
 * The parts of `keptPaise` (what the client pays and the artist keeps, before fees): commission =
 * shareOf(kept, commissionBps), GST = shareOf(commission, gstBps), TDS = shareOf(kept, tdsBps) on
 * the gross, each rounded half-up on its own; the artist's net is the remainder, so the four parts
 * add up to `keptPaise` exactly. The client never pays more: the fee comes out of the artist's
 * share. Throws a TypeError for an amount that is not whole paise or is negative, for rates
 * outside 0–10000, and when the parts would take more than the whole (only rates near 100 % in
 * all can do that, never the product's).
 */
export function platformFeeOf(keptPaise: Paise, rates: FeeRates): PlatformFee {
  assertPaise(keptPaise, "Kept amount");
  if (keptPaise < 0) throw new TypeError(`Kept amount must be 0 or more: ${keptPaise}`);
  const commissionPaise = shareOf(keptPaise, rates.commissionBps);
  const gstPaise = shareOf(commissionPaise, rates.gstBps);
  const tdsPaise = shareOf(keptPaise, rates.tdsBps);
  const artistNetPaise = keptPaise - commissionPaise - gstPaise - tdsPaise;
  if (artistNetPaise < 0)
    throw new TypeError(
      `Fee rates take more than the kept amount ${keptPaise}: ${JSON.stringify(rates)}`,
    );
  return { commissionPaise, gstPaise, tdsPaise, artistNetPaise };
}
