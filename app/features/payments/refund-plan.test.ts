import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cancellationOutcome } from "~/features/terms/cancellation";
import { DEPOSIT_BPS_CHOICES, POLICY_CODES, policyTerms } from "~/features/terms/policies";
import { shareOf } from "~/lib/money";
import { DEFAULT_FEE_RATES, type FeeRates, platformFeeOf, TDS_194O_BPS } from "./platform-fee";
import { type RefundPlan, type RefundPlanPayment, refundPlan } from "./refund-plan";

const HOUR = 3_600_000;

/** A fresh captured payment whose transfer carries the artist's net share at `rates`. */
function paid(id: string, amountPaise: number, rates: FeeRates = DEFAULT_FEE_RATES) {
  return {
    id: `pay_${id}`,
    amountPaise,
    refundedPaise: 0,
    transfer: {
      id: `trf_${id}`,
      amountPaise: platformFeeOf(amountPaise, rates).artistNetPaise,
      reversedPaise: 0,
    },
    feeRates: rates,
  } satisfies RefundPlanPayment;
}

/** §4.4: ₹1,25,000 with a 30 % deposit, commission 10 %, GST 18 % on it, TDS 0.1 %. */
const RATES_44 = { ...DEFAULT_FEE_RATES, tdsBps: TDS_194O_BPS };
const DEPOSIT_44 = paid("D", 3_750_000, RATES_44);
const BALANCE_44 = paid("B", 8_750_000, RATES_44);

function withoutRates({ feeRates: _, ...payment }: RefundPlanPayment): RefundPlanPayment {
  return payment;
}

const sum = (amounts: { amountPaise: number }[]) => amounts.reduce((s, a) => s + a.amountPaise, 0);

/** What the artist still holds across the transfers once the plan is carried out. */
function artistHoldsAfter(payments: readonly RefundPlanPayment[], plan: RefundPlan) {
  const before = payments.reduce(
    (s, p) => s + (p.transfer ? p.transfer.amountPaise - p.transfer.reversedPaise : 0),
    0,
  );
  return before - sum(plan.reversals);
}

/** The properties every plan holds, whatever the payments and the refund. */
function expectSound(
  payments: readonly RefundPlanPayment[],
  refundPaise: number,
  plan: RefundPlan,
) {
  expect(sum(plan.refunds)).toBe(refundPaise);
  expect(sum(plan.reversals)).toBeLessThanOrEqual(sum(plan.refunds));
  const refundOf = new Map(plan.refunds.map((r) => [r.paymentId, r.amountPaise]));
  expect(refundOf.size).toBe(plan.refunds.length);
  for (const refund of plan.refunds) expect(refund.amountPaise).toBeGreaterThan(0);
  payments.forEach((payment, i) => {
    const remaining = payment.amountPaise - payment.refundedPaise;
    const refund = refundOf.get(payment.id) ?? 0;
    expect(refund).toBeLessThanOrEqual(remaining);
    // Newest first: an older payment is touched only once every newer one is refunded in full.
    if (refund > 0) {
      for (const newer of payments.slice(i + 1))
        expect(refundOf.get(newer.id) ?? 0).toBe(newer.amountPaise - newer.refundedPaise);
    }
  });
  // Refunds come newest first in the plan too, and reversals follow their order.
  const order = plan.refunds.map((r) => payments.findIndex((p) => p.id === r.paymentId));
  expect(order).toEqual([...order].sort((a, b) => b - a));
  const reversedIds = plan.reversals.map((r) => r.transferId);
  expect(reversedIds).toEqual(
    plan.refunds
      .map((r) => payments.find((p) => p.id === r.paymentId)?.transfer?.id)
      .filter((id): id is string => id !== undefined && reversedIds.includes(id)),
  );
  for (const reversal of plan.reversals) {
    const payment = payments.find((p) => p.transfer?.id === reversal.transferId);
    const transfer = payment?.transfer;
    if (!payment || !transfer) throw new Error(`Unknown transfer ${reversal.transferId}`);
    expect(reversal.amountPaise).toBeGreaterThan(0);
    expect(reversal.amountPaise).toBeLessThanOrEqual(transfer.amountPaise - transfer.reversedPaise);
    expect(reversal.amountPaise).toBeLessThanOrEqual(refundOf.get(payment.id) ?? 0);
  }
}

const refundOf = (plan: RefundPlan, paymentId: string) =>
  plan.refunds.find((r) => r.paymentId === paymentId)?.amountPaise;

/**
 * Each refunded transfer keeps exactly platformFeeOf(what its payment keeps).artistNetPaise, or,
 * where that lies outside what the reversal may be (0 to the lesser of the transfer and the
 * refund), the nearest bound. True when every transfer landed exactly.
 */
function expectKeepsNet(payments: readonly RefundPlanPayment[], plan: RefundPlan): boolean {
  let exact = true;
  for (const payment of payments) {
    const refund = refundOf(plan, payment.id);
    const { transfer, feeRates } = payment;
    if (refund === undefined || !transfer || !feeRates) continue;
    const remaining = payment.amountPaise - payment.refundedPaise;
    const held = transfer.amountPaise - transfer.reversedPaise;
    const net = platformFeeOf(remaining - refund, feeRates).artistNetPaise;
    const reversed = plan.reversals.find((r) => r.transferId === transfer.id)?.amountPaise ?? 0;
    const wanted = Math.min(Math.max(held - net, 0), held, refund);
    expect(reversed).toBe(wanted);
    if (wanted !== held - net) exact = false;
  }
  return exact;
}

describe("refundPlan", () => {
  it("plans the §4.4 cancellation: balance in full, then 625,000 of the deposit", () => {
    const payments = [DEPOSIT_44, BALANCE_44];
    expect(DEPOSIT_44.transfer.amountPaise).toBe(3_303_750);
    expect(BALANCE_44.transfer.amountPaise).toBe(7_708_750);
    const plan = refundPlan({ payments, refundPaise: 9_375_000 });
    expect(plan).toEqual({
      refunds: [
        { paymentId: "pay_B", amountPaise: 8_750_000 },
        { paymentId: "pay_D", amountPaise: 625_000 },
      ],
      reversals: [
        { transferId: "trf_B", amountPaise: 7_708_750 },
        { transferId: "trf_D", amountPaise: 550_625 },
      ],
    });
    // The deposit transfer keeps exactly the artist's net of the kept 3,125,000.
    expect(artistHoldsAfter(payments, plan)).toBe(2_753_125);
    expect(artistHoldsAfter(payments, plan)).toBe(
      platformFeeOf(3_125_000, RATES_44).artistNetPaise,
    );
    // The §4.4 legs: artist_hold 8,259,375 + fee_unearned 1,106,250 + tds_hold 9,375 = the refund.
    expect(sum(plan.reversals)).toBe(8_259_375);
    // The same plan from the proportions alone, without the rates.
    expect(refundPlan({ payments: payments.map(withoutRates), refundPaise: 9_375_000 })).toEqual(
      plan,
    );
  });

  it("reverses in proportion, rounding what the transfer keeps half-up", () => {
    // The balance transfer keeps 7,708,750 × 7,750,000 ÷ 8,750,000 = 6,827,750 exactly.
    expect(refundPlan({ payments: [DEPOSIT_44, BALANCE_44], refundPaise: 1_000_000 })).toEqual({
      refunds: [{ paymentId: "pay_B", amountPaise: 1_000_000 }],
      reversals: [{ transferId: "trf_B", amountPaise: 881_000 }],
    });
    // Keeps 88 × 1 ÷ 100 = 0.88 → 1 paisa; reverses the other 87 of the 99 refunded.
    const payment = {
      id: "p",
      amountPaise: 100,
      refundedPaise: 0,
      transfer: { id: "t", amountPaise: 88, reversedPaise: 0 },
    };
    expect(refundPlan({ payments: [payment], refundPaise: 99 }).reversals).toEqual([
      { transferId: "t", amountPaise: 87 },
    ]);
    // Keeps 88 × 50 ÷ 100 = 44, and 88 × 99 ÷ 100 = 87.12 → 87 when 1 paisa is refunded.
    expect(refundPlan({ payments: [payment], refundPaise: 50 }).reversals).toEqual([
      { transferId: "t", amountPaise: 44 },
    ]);
    expect(refundPlan({ payments: [payment], refundPaise: 1 }).reversals).toEqual([
      { transferId: "t", amountPaise: 1 },
    ]);
  });

  it("with fee rates, a transfer keeps exactly the net of what its payment keeps", () => {
    const payments = [paid("D", 100), paid("B", 107)]; // transfers 88 and 94
    // In proportion the balance transfer would keep 94 × 54 ÷ 107 = 47.44 → 47 and give back 47…
    expect(refundPlan({ payments: payments.map(withoutRates), refundPaise: 53 })).toEqual({
      refunds: [{ paymentId: "pay_B", amountPaise: 53 }],
      reversals: [{ transferId: "trf_B", amountPaise: 47 }],
    });
    // …but the artist's net of the kept 54 is 48 (commission 5, GST 1): it gives back 46.
    expect(platformFeeOf(54, DEFAULT_FEE_RATES).artistNetPaise).toBe(48);
    expect(refundPlan({ payments, refundPaise: 53 })).toEqual({
      refunds: [{ paymentId: "pay_B", amountPaise: 53 }],
      reversals: [{ transferId: "trf_B", amountPaise: 46 }],
    });
  });

  it("refuses fee rates its transfer was not split at", () => {
    const balance = { ...BALANCE_44, feeRates: DEFAULT_FEE_RATES }; // split with TDS, told without
    expect(() => refundPlan({ payments: [DEPOSIT_44, balance], refundPaise: 4_375_000 })).toThrow(
      TypeError,
    );
  });

  it("plans nothing for a refund of 0", () => {
    expect(refundPlan({ payments: [DEPOSIT_44, BALANCE_44], refundPaise: 0 })).toEqual({
      refunds: [],
      reversals: [],
    });
    expect(refundPlan({ payments: [], refundPaise: 0 })).toEqual({ refunds: [], reversals: [] });
  });

  it("takes every transfer back in full when everything is refunded (the artist cancels)", () => {
    expect(refundPlan({ payments: [DEPOSIT_44, BALANCE_44], refundPaise: 12_500_000 })).toEqual({
      refunds: [
        { paymentId: "pay_B", amountPaise: 8_750_000 },
        { paymentId: "pay_D", amountPaise: 3_750_000 },
      ],
      reversals: [
        { transferId: "trf_B", amountPaise: 7_708_750 },
        { transferId: "trf_D", amountPaise: 3_303_750 },
      ],
    });
  });

  it("skips what is already refunded and reversed, and payments not yet transferred", () => {
    const balance = {
      ...BALANCE_44,
      refundedPaise: 8_750_000,
      transfer: { ...BALANCE_44.transfer, reversedPaise: 7_708_750 },
    };
    const deposit = { ...DEPOSIT_44, transfer: null };
    expect(refundPlan({ payments: [deposit, balance], refundPaise: 625_000 })).toEqual({
      refunds: [{ paymentId: "pay_D", amountPaise: 625_000 }],
      reversals: [],
    });
    // A second refund continues where the first left off, with the same proportion.
    const afterFirst = {
      ...DEPOSIT_44,
      refundedPaise: 625_000,
      transfer: { ...DEPOSIT_44.transfer, reversedPaise: 550_625 },
    };
    expect(refundPlan({ payments: [afterFirst, balance], refundPaise: 3_125_000 })).toEqual({
      refunds: [{ paymentId: "pay_D", amountPaise: 3_125_000 }],
      reversals: [{ transferId: "trf_D", amountPaise: 2_753_125 }],
    });
  });

  it("never reverses more than the refund, even from a transfer above its payment's rest", () => {
    // Refunded 90 earlier without a reversal: the transfer's 88 stand against 10 remaining.
    const payment = {
      id: "p",
      amountPaise: 100,
      refundedPaise: 90,
      transfer: { id: "t", amountPaise: 88, reversedPaise: 0 },
    };
    expect(refundPlan({ payments: [payment], refundPaise: 5 })).toEqual({
      refunds: [{ paymentId: "p", amountPaise: 5 }],
      reversals: [{ transferId: "t", amountPaise: 5 }],
    });
  });

  it("throws a TypeError when asked to refund more than remains", () => {
    expect(() =>
      refundPlan({ payments: [DEPOSIT_44, BALANCE_44], refundPaise: 12_500_001 }),
    ).toThrow(TypeError);
    expect(() => refundPlan({ payments: [], refundPaise: 1 })).toThrow(TypeError);
    const refunded = { ...DEPOSIT_44, refundedPaise: 3_750_000 };
    expect(() => refundPlan({ payments: [refunded], refundPaise: 1 })).toThrow(TypeError);
  });

  it("throws a TypeError on amounts that cannot be", () => {
    const bad: RefundPlanPayment[] = [
      { ...DEPOSIT_44, amountPaise: -1 },
      { ...DEPOSIT_44, amountPaise: 1.5 },
      { ...DEPOSIT_44, refundedPaise: 3_750_001 },
      { ...DEPOSIT_44, transfer: { ...DEPOSIT_44.transfer, amountPaise: 3_750_001 } },
      { ...DEPOSIT_44, transfer: { ...DEPOSIT_44.transfer, reversedPaise: 3_303_751 } },
      { ...DEPOSIT_44, transfer: { ...DEPOSIT_44.transfer, reversedPaise: -1 } },
    ];
    for (const payment of bad)
      expect(() => refundPlan({ payments: [payment], refundPaise: 0 })).toThrow(TypeError);
    expect(() => refundPlan({ payments: [DEPOSIT_44], refundPaise: -1 })).toThrow(TypeError);
    expect(() => refundPlan({ payments: [DEPOSIT_44], refundPaise: Number.NaN })).toThrow(
      TypeError,
    );
    const badRates = { ...DEPOSIT_44, feeRates: { ...RATES_44, gstBps: 10_001 } };
    expect(() => refundPlan({ payments: [badRates], refundPaise: 1 })).toThrow(TypeError);
  });
});

/** ₹100 to ₹2.5 crore in paise (§8.1). */
const TOTAL = fc.integer({ min: 10_000, max: 2_500_000_000 });

const PRODUCT_RATES: fc.Arbitrary<FeeRates> = fc.record({
  commissionBps: fc.integer({ min: 0, max: 3000 }),
  gstBps: fc.integer({ min: 0, max: 2800 }),
  tdsBps: fc.constantFrom(0, TDS_194O_BPS, 100, 500),
});

/** Any state a booking's payments may be in: refunded and reversed in part, transferred or not. */
const PAYMENTS: fc.Arbitrary<RefundPlanPayment[]> = fc
  .array(
    fc.integer({ min: 0, max: 1_250_000_000 }).chain((amount) =>
      fc.record({
        amountPaise: fc.constant(amount),
        refundedPaise: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: amount })),
        transfer: fc.option(
          fc.integer({ min: 0, max: amount }).chain((sent) =>
            fc.record({
              amountPaise: fc.constant(sent),
              reversedPaise: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: sent })),
            }),
          ),
        ),
      }),
    ),
    { minLength: 0, maxLength: 5 },
  )
  .map((payments) =>
    payments.map((p, i) => ({
      id: `pay_${i}`,
      amountPaise: p.amountPaise,
      refundedPaise: p.refundedPaise,
      transfer: p.transfer && { id: `trf_${i}`, ...p.transfer },
    })),
  );

const remainingOf = (payments: readonly RefundPlanPayment[]) =>
  payments.reduce((s, p) => s + p.amountPaise - p.refundedPaise, 0);

describe("refundPlan properties", () => {
  it("any state, any refund up to what remains: exact sums, limits kept, newest first", () => {
    fc.assert(
      fc.property(
        PAYMENTS.chain((payments) =>
          fc.tuple(fc.constant(payments), fc.integer({ min: 0, max: remainingOf(payments) })),
        ),
        ([payments, refundPaise]) => {
          const plan = refundPlan({ payments, refundPaise });
          expectSound(payments, refundPaise, plan);
          // Each reversal is its transfer's proportional share of the refund, to within a paisa,
          // wherever the transfer holds no more than its payment has left.
          for (const refund of plan.refunds) {
            const payment = payments.find((p) => p.id === refund.paymentId);
            const transfer = payment?.transfer;
            if (!payment || !transfer) continue;
            const remaining = payment.amountPaise - payment.refundedPaise;
            const held = transfer.amountPaise - transfer.reversedPaise;
            if (held > remaining) continue;
            const reversed =
              plan.reversals.find((r) => r.transferId === transfer.id)?.amountPaise ?? 0;
            const exact = (BigInt(held) * BigInt(refund.amountPaise) * 2n) / BigInt(remaining);
            expect(BigInt(reversed) * 2n - exact).toBeGreaterThanOrEqual(-2n);
            expect(BigInt(reversed) * 2n - exact).toBeLessThanOrEqual(2n);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("refuses any refund above what remains", () => {
    fc.assert(
      fc.property(PAYMENTS, fc.integer({ min: 1, max: 1_000_000 }), (payments, over) => {
        expect(() => refundPlan({ payments, refundPaise: remainingOf(payments) + over })).toThrow(
          TypeError,
        );
      }),
    );
  });

  it("at any rates, each transfer keeps the net of its payment's kept part where bounds allow", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 1_250_000_000 }), { minLength: 1, maxLength: 4 }),
        PRODUCT_RATES,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (amounts, rates, fraction) => {
          const payments = amounts.map((amount, i) => paid(String(i), amount, rates));
          const refundPaise = Math.round(remainingOf(payments) * fraction);
          const plan = refundPlan({ payments, refundPaise });
          expectSound(payments, refundPaise, plan);
          expectKeepsNet(payments, plan);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("with cancellationOutcome: refund + kept = paid, fee parts add up, the plan carries it out", () => {
    const accepted = new Date("2027-01-01T00:00:00Z").getTime();
    fc.assert(
      fc.property(
        fc.record({
          policy: fc.constantFrom(...POLICY_CODES),
          total: TOTAL,
          depositBps: fc.constantFrom(...DEPOSIT_BPS_CHOICES),
          state: fc.constantFrom("nothing", "deposit", "everything"),
          canceller: fc.constantFrom("client" as const, "artist" as const),
          eventInHours: fc.integer({ min: 0, max: 400 * 24 }),
          cancelAfterMinutes: fc.integer({ min: 0, max: 401 * 24 * 60 }),
          rates: PRODUCT_RATES,
        }),
        ({
          policy,
          total,
          depositBps,
          state,
          canceller,
          eventInHours,
          cancelAfterMinutes,
          rates,
        }) => {
          const deposit = shareOf(total, depositBps);
          const amounts =
            state === "nothing" ? [] : state === "deposit" ? [deposit] : [deposit, total - deposit];
          const payments = amounts
            .filter((amount) => amount > 0)
            .map((amount, i) => paid(String(i), amount, rates));
          const paidPaise = remainingOf(payments);
          const outcome = cancellationOutcome({
            cancellation: policyTerms(policy),
            totalPaise: total,
            paidPaise,
            acceptedAt: new Date(accepted),
            eventStartAt: new Date(accepted + eventInHours * HOUR),
            canceller,
            at: new Date(accepted + cancelAfterMinutes * 60_000),
          });
          expect(outcome.refundPaise + outcome.keptPaise).toBe(paidPaise);
          expect(outcome.refundPaise).toBeGreaterThanOrEqual(0);
          expect(outcome.keptPaise).toBeGreaterThanOrEqual(0);
          if (canceller === "artist") expect(outcome.refundPaise).toBe(paidPaise);

          const fee = platformFeeOf(outcome.keptPaise, rates);
          for (const part of Object.values(fee)) expect(part).toBeGreaterThanOrEqual(0);
          expect(fee.commissionPaise + fee.gstPaise + fee.tdsPaise + fee.artistNetPaise).toBe(
            outcome.keptPaise,
          );

          const plan = refundPlan({ payments, refundPaise: outcome.refundPaise });
          expectSound(payments, outcome.refundPaise, plan);
          const exact = expectKeepsNet(payments, plan);
          if (outcome.keptPaise === 0) expect(artistHoldsAfter(payments, plan)).toBe(0);
          // Where each transfer keeps its payment's net, the ledger's per-payment parts of the
          // kept amount (artist, commission, GST, TDS) add up to it to the paisa.
          if (exact) {
            const feesKept = payments.reduce((s, p) => {
              const kept = p.amountPaise - (refundOf(plan, p.id) ?? 0);
              const parts = platformFeeOf(kept, rates);
              return s + parts.commissionPaise + parts.gstPaise + parts.tdsPaise;
            }, 0);
            expect(artistHoldsAfter(payments, plan) + feesKept).toBe(outcome.keptPaise);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
