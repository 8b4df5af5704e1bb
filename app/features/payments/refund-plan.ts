// Which payments a refund comes from and how much of each artist transfer goes back first: a pure
// plan the payments work carries out, reversals before refunds (money-and-terms §3.2, §4.4;
// docs/decisions/051-fees-and-refund-plan.md).

import { assertPaise, type Paise } from "~/lib/money";
import { type FeeRates, platformFeeOf } from "./platform-fee";

export type RefundPlanTransfer = {
  id: string;
  amountPaise: Paise;
  /** Already taken back from the artist by earlier reversals. */
  reversedPaise: Paise;
};

export type RefundPlanPayment = {
  id: string;
  amountPaise: Paise;
  /** Already returned to the client by earlier refunds. */
  refundedPaise: Paise;
  /** The artist's share sent on from this payment; null before (or without) a transfer. */
  transfer: RefundPlanTransfer | null;
  /**
   * Optional: the rates this payment's split used (its transfer is platformFeeOf(amount,
   * feeRates).artistNetPaise). Given, the transfer keeps exactly the artist's net of what the
   * payment keeps, not the proportional share, which can differ from it by a few paise of rounding.
   */
  feeRates?: FeeRates;
};

export type RefundPlanInput = {
  /** The booking's captured payments, oldest first. */
  payments: readonly RefundPlanPayment[];
  refundPaise: Paise;
};

export type RefundPlan = {
  /** Newest payment first; only payments refunded something. */
  refunds: { paymentId: string; amountPaise: Paise }[];
  /** In the order of `refunds`; only transfers reversed something. Carry these out first. */
  reversals: { transferId: string; amountPaise: Paise }[];
};

/**
 * At most this many paise separate the artist's net of a payment's kept part from the transfer's
 * proportional share of it, when the transfer was split at the same rates: the net is within 2
 * paise of the exact share (three half-up roundings, GST at most 100 %), the proportional share
 * within 2.5 (the transfer's own split, then half-up), and they differ by a whole number. Further
 * apart, the rates are not the ones the split used.
 */
const RATES_SLACK = 4;

/**
 * Plans refunding `refundPaise` of a booking's payments.
 *
 * Refunds come from the newest payment first (a payment is refunded only once every newer one is
 * refunded in full), each at most its remaining amount (amount − refunded). For each refunded
 * payment the plan reverses, from its transfer, the artist's part of that refund in proportion to
 * the transfer's remaining share of the payment's remaining amount. The rounding falls on what the
 * transfer keeps, not on what it gives back: it keeps transferRemaining × paymentKept ÷
 * paymentRemaining rounded half-up (as shareOf rounds), and the reversal is the rest, never more
 * than the transfer's remaining nor than that payment's refund. In the §4.4 example the deposit
 * transfer thus keeps exactly the artist's net of the kept 3,125,000 (2,753,125). With a payment's
 * `feeRates` the transfer keeps exactly platformFeeOf(what the payment keeps).artistNetPaise
 * instead, within the same bounds, so the ledger's fee on the kept part matches to the paisa.
 *
 * Throws a TypeError for amounts that are not whole paise of 0 or more, a refund or reversal
 * recorded above its payment or transfer, a transfer above its payment, a refund above what
 * remains in total, or `feeRates` further than rounding from the transfer's proportional share.
 */
export function refundPlan(input: RefundPlanInput): RefundPlan {
  const { payments, refundPaise } = input;
  checkAmount(refundPaise, "refundPaise");
  let remainingInTotal = 0;
  for (const payment of payments) {
    checkPayment(payment);
    remainingInTotal += payment.amountPaise - payment.refundedPaise;
  }
  if (refundPaise > remainingInTotal)
    throw new TypeError(
      `Cannot refund ${refundPaise} paise: only ${remainingInTotal} remain to refund`,
    );

  const plan: RefundPlan = { refunds: [], reversals: [] };
  let left = refundPaise;
  for (let i = payments.length - 1; i >= 0 && left > 0; i--) {
    const payment = payments[i] as RefundPlanPayment;
    const remaining = payment.amountPaise - payment.refundedPaise;
    const refund = Math.min(left, remaining);
    if (refund === 0) continue;
    left -= refund;
    plan.refunds.push({ paymentId: payment.id, amountPaise: refund });
    const transfer = payment.transfer;
    if (!transfer) continue;
    const held = transfer.amountPaise - transfer.reversedPaise;
    const keeps = transferKeeps(payment, held, remaining - refund);
    const reversal = Math.min(Math.max(held - keeps, 0), held, refund);
    if (reversal > 0) plan.reversals.push({ transferId: transfer.id, amountPaise: reversal });
  }
  return plan;
}

/** What a transfer holding `held` should keep once its payment keeps `kept` of what remains. */
function transferKeeps(payment: RefundPlanPayment, held: Paise, kept: Paise): Paise {
  const remaining = payment.amountPaise - payment.refundedPaise;
  const proportional = halfUpRatio(held, kept, remaining);
  if (!payment.feeRates) return proportional;
  const net = platformFeeOf(kept, payment.feeRates).artistNetPaise;
  if (Math.abs(net - proportional) > RATES_SLACK)
    throw new TypeError(
      `Payment ${payment.id}: its transfer was not split at these feeRates (${net}, ${proportional})`,
    );
  return net;
}

/** `value × numerator ÷ denominator` rounded half-up, exactly (BigInt); denominator above 0. */
function halfUpRatio(value: Paise, numerator: Paise, denominator: Paise): Paise {
  const twice = BigInt(value) * BigInt(numerator) * 2n + BigInt(denominator);
  return Number(twice / (BigInt(denominator) * 2n));
}

function checkAmount(value: unknown, name: string): asserts value is Paise {
  assertPaise(value, name);
  if (value < 0) throw new TypeError(`${name} must be 0 or more: ${value}`);
}

function checkPayment(payment: RefundPlanPayment): void {
  const { id, amountPaise, refundedPaise, transfer } = payment;
  checkAmount(amountPaise, `Payment ${id} amountPaise`);
  checkAmount(refundedPaise, `Payment ${id} refundedPaise`);
  if (refundedPaise > amountPaise)
    throw new TypeError(`Payment ${id} has more refunded than paid: ${refundedPaise}`);
  if (!transfer) return;
  checkAmount(transfer.amountPaise, `Transfer ${transfer.id} amountPaise`);
  checkAmount(transfer.reversedPaise, `Transfer ${transfer.id} reversedPaise`);
  if (transfer.reversedPaise > transfer.amountPaise)
    throw new TypeError(`Transfer ${transfer.id} has more reversed than sent`);
  if (transfer.amountPaise > amountPaise)
    throw new TypeError(`Transfer ${transfer.id} sends more than its payment ${id}`);
}
