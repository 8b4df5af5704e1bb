import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  allocate,
  assertPaise,
  paiseToRupeesText,
  parseRupees,
  rupeesToPaise,
  shareOf,
} from "./money";

describe("assertPaise", () => {
  it("passes safe integers and throws on anything else", () => {
    expect(() => assertPaise(0)).not.toThrow();
    expect(() => assertPaise(-450050)).not.toThrow();
    expect(() => assertPaise(Number.MAX_SAFE_INTEGER)).not.toThrow();
    for (const bad of [1.5, Number.NaN, Infinity, Number.MAX_SAFE_INTEGER + 1, "100", null])
      expect(() => assertPaise(bad)).toThrow(TypeError);
  });
});

describe("parseRupees", () => {
  it.each([
    ["4500", 450_000],
    ["4,500.5", 450_050],
    ["₹ 1,00,000.00", 10_000_000],
    ["₹1,00,000", 10_000_000],
    [" 12.05 ", 1205],
    ["1,234,567.89", 123_456_789],
    ["12,34,567", 123_456_700],
    ["0", 0],
    ["0.01", 1],
    [".5", 50],
    ["12.", 1200],
    ["007", 700],
    ["25000000", 2_500_000_000],
    ["90071992547409.91", Number.MAX_SAFE_INTEGER],
  ])("%j → %d paise", (text, paise) => {
    expect(parseRupees(text)).toBe(paise);
  });

  it.each([
    "",
    "  ",
    ".",
    "₹",
    "-5",
    "+5",
    "12.345",
    "1.2.3",
    "4500,50",
    "45,00",
    "1,2,3",
    ",500",
    "500,",
    "1,,000",
    "1,000.5,0",
    "4 500",
    "12e3",
    "0x10",
    "Infinity",
    "NaN",
    "abc",
    "٤٥",
    "90071992547409.92",
    "9".repeat(400),
  ])("%j → null", (text) => {
    expect(parseRupees(text)).toBeNull();
  });

  it("reads back every amount paiseToRupeesText writes", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (paise) => {
        expect(parseRupees(paiseToRupeesText(paise))).toBe(paise);
      }),
    );
  });
});

describe("rupeesToPaise", () => {
  it("turns numeric(…, 2) values into exact paise", () => {
    expect(rupeesToPaise(4500.5)).toBe(450_050);
    expect(rupeesToPaise(0.29)).toBe(29); // 0.29 * 100 is 28.999999999999996
    expect(rupeesToPaise(1.15)).toBe(115); // 1.15 * 100 is 114.99999999999999
    expect(rupeesToPaise(-0.001)).toBe(0);
    expect(Object.is(rupeesToPaise(-0), 0)).toBe(true);
  });

  it("agrees with parseRupees for every two-decimal amount up to ₹10 crore crore", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 14 }), (paise) => {
        const text = paiseToRupeesText(paise);
        expect(rupeesToPaise(Number(text))).toBe(paise);
      }),
    );
  });

  it("throws on values that are no amount", () => {
    for (const bad of [Number.NaN, Infinity, 1e300]) expect(() => rupeesToPaise(bad)).toThrow();
  });
});

describe("shareOf", () => {
  it("rounds half up", () => {
    expect(shareOf(10_000, 3000)).toBe(3000);
    expect(shareOf(5, 5000)).toBe(3); // 2.5
    expect(shareOf(3, 5000)).toBe(2); // 1.5
    expect(shareOf(1, 4999)).toBe(0);
    expect(shareOf(1, 5000)).toBe(1);
    expect(shareOf(333, 3333)).toBe(111); // 110.9889
    expect(shareOf(-5, 5000)).toBe(-3);
    expect(shareOf(12_345, 0)).toBe(0);
    expect(shareOf(12_345, 10_000)).toBe(12_345);
    expect(shareOf(Number.MAX_SAFE_INTEGER, 10_000)).toBe(Number.MAX_SAFE_INTEGER);
    expect(shareOf(Number.MAX_SAFE_INTEGER, 5000)).toBe(4_503_599_627_370_496);
  });

  it("throws on basis points outside 0…10000 and on amounts that are not paise", () => {
    for (const bps of [-1, 10_001, 1.5, Number.NaN]) expect(() => shareOf(100, bps)).toThrow();
    expect(() => shareOf(1.5, 100)).toThrow(TypeError);
  });

  it("equals the exact share rounded half up, never more than the total", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: 10_000 }),
        (total, bps) => {
          const share = shareOf(total, bps);
          const exact = BigInt(total) * BigInt(bps); // the share times 10000
          expect(Number.isSafeInteger(share)).toBe(true);
          expect(share).toBeLessThanOrEqual(total);
          // share − ½ ≤ exact share < share + ½
          expect(BigInt(share) * 20_000n - 10_000n <= exact * 2n).toBe(true);
          expect(exact * 2n < BigInt(share) * 20_000n + 10_000n).toBe(true);
        },
      ),
    );
  });
});

describe("allocate", () => {
  it("splits by largest remainder, the earlier part first on a tie", () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(5, [1, 1])).toEqual([3, 2]);
    expect(allocate(10, [3, 7])).toEqual([3, 7]);
    expect(allocate(7, [1, 2, 3])).toEqual([1, 2, 4]); // 1.17, 2.33, 3.5
    expect(allocate(100, [0, 1])).toEqual([0, 100]);
    expect(allocate(0, [1, 2])).toEqual([0, 0]);
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocate(Number.MAX_SAFE_INTEGER, [1, 1])).toEqual([
      4_503_599_627_370_496, 4_503_599_627_370_495,
    ]);
  });

  it("throws without a positive weight or with a weight that is no whole number", () => {
    expect(() => allocate(100, [])).toThrow(TypeError);
    expect(() => allocate(100, [0, 0])).toThrow(TypeError);
    expect(() => allocate(100, [1, -1])).toThrow(TypeError);
    expect(() => allocate(100, [0.5])).toThrow(TypeError);
  });

  it("always adds up to the total, each part within one paisa of its exact share", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(10 ** 15), max: 10 ** 15 }),
        fc
          .array(fc.integer({ min: 0, max: 10 ** 12 }), { minLength: 1, maxLength: 12 })
          .filter((ws) => ws.some((w) => w > 0)),
        (total, weights) => {
          const parts = allocate(total, weights);
          expect(parts).toHaveLength(weights.length);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          const sum = weights.reduce((a, b) => a + b, 0);
          parts.forEach((part, i) => {
            expect(Number.isSafeInteger(part)).toBe(true);
            const exact = (total * (weights[i] ?? 0)) / sum;
            expect(Math.abs(part - exact)).toBeLessThan(1.001);
          });
        },
      ),
    );
  });
});

describe("paiseToRupeesText", () => {
  it("writes the plain form a form field takes", () => {
    expect(paiseToRupeesText(450_050)).toBe("4500.50");
    expect(paiseToRupeesText(0)).toBe("0.00");
    expect(paiseToRupeesText(5)).toBe("0.05");
    expect(paiseToRupeesText(-1205)).toBe("-12.05");
    expect(paiseToRupeesText(Number.MAX_SAFE_INTEGER)).toBe("90071992547409.91");
    expect(() => paiseToRupeesText(0.5)).toThrow(TypeError);
  });
});
