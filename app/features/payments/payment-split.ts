// How one payment divides (docs/decisions/055): the artist's net share goes to their linked
// account on hold; the commission and the GST on it stay with GigLedger until the payout is
// released. The client pays exactly the agreed amount: every fee comes out of the artist's share.

import type { Paise } from "~/lib/money";
import { DEFAULT_FEE_RATES, type FeeRates, platformFeeOf } from "./platform-fee";

export type PaymentSplit = {
  amountPaise: Paise;
  artistSharePaise: Paise;
  commissionPaise: Paise;
  gstPaise: Paise;
  tdsPaise: Paise;
};

/** The fee rates of a platform charging `commissionBps` (GST 18 % on it; no TDS yet). */
export const feeRatesFor = (commissionBps: number): FeeRates => ({
  ...DEFAULT_FEE_RATES,
  commissionBps,
});

/** The parts of `amountPaise`; they add up to it exactly. */
export function splitPayment(amountPaise: Paise, rates: FeeRates): PaymentSplit {
  const fee = platformFeeOf(amountPaise, rates);
  return {
    amountPaise,
    artistSharePaise: fee.artistNetPaise,
    commissionPaise: fee.commissionPaise,
    gstPaise: fee.gstPaise,
    tdsPaise: fee.tdsPaise,
  };
}

/**
 * What goes back when `refundPaise` of a payment is refunded: the difference between the split
 * of the whole payment and the split of what is kept, part by part, so the fee on a refunded
 * amount is never kept and the parts still add up.
 */
export function refundSplit(
  amountPaise: Paise,
  alreadyRefundedPaise: Paise,
  refundPaise: Paise,
  rates: FeeRates,
): { back: PaymentSplit; kept: PaymentSplit } {
  const before = splitPayment(amountPaise - alreadyRefundedPaise, rates);
  const kept = splitPayment(amountPaise - alreadyRefundedPaise - refundPaise, rates);
  const back = {
    amountPaise: refundPaise,
    artistSharePaise: before.artistSharePaise - kept.artistSharePaise,
    commissionPaise: before.commissionPaise - kept.commissionPaise,
    gstPaise: before.gstPaise - kept.gstPaise,
    tdsPaise: before.tdsPaise - kept.tdsPaise,
  };
  // Rounding can make a larger amount's net a paisa smaller (commission and GST both round up):
  // then that paisa comes from the commission instead, so no part goes back below zero.
  if (back.artistSharePaise < 0) {
    back.commissionPaise += back.artistSharePaise;
    kept.commissionPaise -= back.artistSharePaise;
    kept.artistSharePaise += back.artistSharePaise;
    back.artistSharePaise = 0;
  }
  return { kept, back };
}
