import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_FEE_RATES, type FeeRates, platformFeeOf, TDS_194O_BPS } from "./platform-fee";

/** ₹100 to ₹2.5 crore in paise: the range the design's properties cover (§8.1). */
const KEPT = fc.integer({ min: 10_000, max: 2_500_000_000 });

/** Rates as the product could set them: commission to 30 %, GST to 28 %, TDS to 5 % (no PAN). */
const PRODUCT_RATES: fc.Arbitrary<FeeRates> = fc.record({
  commissionBps: fc.integer({ min: 0, max: 3000 }),
  gstBps: fc.integer({ min: 0, max: 2800 }),
  tdsBps: fc.integer({ min: 0, max: 500 }),
});

const bps = fc.integer({ min: 0, max: 10_000 });

function sumOf(fee: ReturnType<typeof platformFeeOf>) {
  return fee.commissionPaise + fee.gstPaise + fee.tdsPaise + fee.artistNetPaise;
}

describe("platformFeeOf", () => {
  it("splits the kept amount of the §4.4 cancellation as the design works it through", () => {
    const rates = { ...DEFAULT_FEE_RATES, tdsBps: TDS_194O_BPS };
    expect(platformFeeOf(3_125_000, rates)).toEqual({
      commissionPaise: 312_500,
      gstPaise: 56_250,
      tdsPaise: 3_125,
      artistNetPaise: 2_753_125,
    });
  });

  it("splits the §4.4 deposit and balance into the transfers the design shows", () => {
    const rates = { ...DEFAULT_FEE_RATES, tdsBps: TDS_194O_BPS };
    expect(platformFeeOf(3_750_000, rates)).toEqual({
      commissionPaise: 375_000,
      gstPaise: 67_500,
      tdsPaise: 3_750,
      artistNetPaise: 3_303_750,
    });
    expect(platformFeeOf(8_750_000, rates).artistNetPaise).toBe(7_708_750);
  });

  it("has the product's defaults: 10 % commission, 18 % GST on it, no TDS; 194-O is 0.1 %", () => {
    expect(DEFAULT_FEE_RATES).toEqual({ commissionBps: 1000, gstBps: 1800, tdsBps: 0 });
    expect(TDS_194O_BPS).toBe(10);
    expect(platformFeeOf(12_500_000, DEFAULT_FEE_RATES)).toEqual({
      commissionPaise: 1_250_000,
      gstPaise: 225_000,
      tdsPaise: 0,
      artistNetPaise: 11_025_000,
    });
  });

  it("takes nothing from nothing", () => {
    expect(platformFeeOf(0, { ...DEFAULT_FEE_RATES, tdsBps: TDS_194O_BPS })).toEqual({
      commissionPaise: 0,
      gstPaise: 0,
      tdsPaise: 0,
      artistNetPaise: 0,
    });
  });

  it("leaves a single kept paisa to the artist (each part rounds to 0)", () => {
    expect(platformFeeOf(1, { ...DEFAULT_FEE_RATES, tdsBps: TDS_194O_BPS })).toEqual({
      commissionPaise: 0,
      gstPaise: 0,
      tdsPaise: 0,
      artistNetPaise: 1,
    });
  });

  it("rounds each part half-up on its own", () => {
    // 10 % of 5 is 0.5 → 1; 18 % of that 1 is 0.18 → 0.
    expect(platformFeeOf(5, DEFAULT_FEE_RATES)).toEqual({
      commissionPaise: 1,
      gstPaise: 0,
      tdsPaise: 0,
      artistNetPaise: 4,
    });
    // 10 % of 25 is 2.5 → 3; 18 % of 3 is 0.54 → 1; 0.1 % of 25 → 0.
    expect(platformFeeOf(25, { ...DEFAULT_FEE_RATES, tdsBps: TDS_194O_BPS })).toEqual({
      commissionPaise: 3,
      gstPaise: 1,
      tdsPaise: 0,
      artistNetPaise: 21,
    });
  });

  it("can take 100 % as commission when nothing is charged on top", () => {
    expect(platformFeeOf(1_000_000, { commissionBps: 10_000, gstBps: 0, tdsBps: 0 })).toEqual({
      commissionPaise: 1_000_000,
      gstPaise: 0,
      tdsPaise: 0,
      artistNetPaise: 0,
    });
  });

  it("refuses rates that take more than the kept amount", () => {
    expect(() =>
      platformFeeOf(1_000_000, { commissionBps: 10_000, gstBps: 1800, tdsBps: 0 }),
    ).toThrow(TypeError);
    expect(() =>
      platformFeeOf(1_000_000, { commissionBps: 9000, gstBps: 0, tdsBps: 1001 }),
    ).toThrow(TypeError);
  });

  it("refuses amounts that are not whole paise of 0 or more, and rates outside 0–10000", () => {
    expect(() => platformFeeOf(-1, DEFAULT_FEE_RATES)).toThrow(TypeError);
    expect(() => platformFeeOf(1.5, DEFAULT_FEE_RATES)).toThrow(TypeError);
    expect(() => platformFeeOf(Number.NaN, DEFAULT_FEE_RATES)).toThrow(TypeError);
    expect(() => platformFeeOf(100, { ...DEFAULT_FEE_RATES, commissionBps: 10_001 })).toThrow(
      TypeError,
    );
    expect(() => platformFeeOf(100, { ...DEFAULT_FEE_RATES, gstBps: -1 })).toThrow(TypeError);
    expect(() => platformFeeOf(100, { ...DEFAULT_FEE_RATES, tdsBps: 0.5 })).toThrow(TypeError);
  });

  it("property: at the product's rates the parts are whole, ≥ 0 and add up to kept", () => {
    fc.assert(
      fc.property(KEPT, PRODUCT_RATES, (kept, rates) => {
        const fee = platformFeeOf(kept, rates);
        for (const part of Object.values(fee)) {
          expect(Number.isSafeInteger(part)).toBe(true);
          expect(part).toBeGreaterThanOrEqual(0);
        }
        expect(sumOf(fee)).toBe(kept);
        // Each part is within half a paisa of its exact share (GST of the rounded commission).
        expect(
          Math.abs(fee.commissionPaise * 10_000 - kept * rates.commissionBps),
        ).toBeLessThanOrEqual(5000);
        expect(
          Math.abs(fee.gstPaise * 10_000 - fee.commissionPaise * rates.gstBps),
        ).toBeLessThanOrEqual(5000);
        expect(Math.abs(fee.tdsPaise * 10_000 - kept * rates.tdsBps)).toBeLessThanOrEqual(5000);
        if (rates.tdsBps === 0) expect(fee.tdsPaise).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });

  it("property: at any rates the parts add up, or it throws as the rates near the whole", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_500_000_000 }),
        fc.record({ commissionBps: bps, gstBps: bps, tdsBps: bps }),
        (kept, rates) => {
          // The exact share the three rates take, in units of 1/10^8 of kept.
          const taken = rates.commissionBps * (10_000 + rates.gstBps) + rates.tdsBps * 10_000;
          let fee: ReturnType<typeof platformFeeOf>;
          try {
            fee = platformFeeOf(kept, rates);
          } catch (error) {
            expect(error).toBeInstanceOf(TypeError);
            // Only when the exact parts come within the rounding (2 paise) of the whole or above.
            expect(BigInt(kept) * BigInt(taken)).toBeGreaterThan(
              (BigInt(kept) - 2n) * 100_000_000n,
            );
            return;
          }
          for (const part of Object.values(fee)) expect(part).toBeGreaterThanOrEqual(0);
          expect(sumOf(fee)).toBe(kept);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
