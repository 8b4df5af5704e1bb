import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatPaise } from "./money-text";

const intl = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });

/**
 * What Intl writes for an amount of paise, given the exact decimal as a string: Intl reads a
 * string as an exact decimal, while p / 100 would be a float that is seldom exactly the amount.
 */
function intlPaise(paise: number): string {
  const abs = BigInt(Math.abs(paise));
  const decimal = `${paise < 0 ? "-" : ""}${abs / 100n}.${String(abs % 100n).padStart(2, "0")}`;
  // TypeScript's lib types format(number | bigint); Node 20 also takes a decimal string.
  return intl.format(decimal as unknown as number);
}

describe("formatPaise", () => {
  it.each([
    [0, "₹0.00"],
    [-0, "₹0.00"],
    [5, "₹0.05"],
    [50, "₹0.50"],
    [-50, "-₹0.50"],
    [450_050, "₹4,500.50"],
    [10_000_000, "₹1,00,000.00"],
    [-150_000, "-₹1,500.00"],
    [1_234_567_890, "₹1,23,45,678.90"],
    [Number.MAX_SAFE_INTEGER, "₹9,00,71,99,25,47,409.91"],
  ])("%d paise → %s", (paise, text) => {
    expect(formatPaise(paise)).toBe(text);
  });

  it("throws on anything but whole paise", () => {
    for (const bad of [0.5, Number.NaN, Infinity, Number.MAX_SAFE_INTEGER + 1])
      expect(() => formatPaise(bad)).toThrow(TypeError);
  });

  it("writes what the reference helper expects from Intl on the fixed cases", () => {
    expect(intlPaise(1_234_567_890)).toBe("₹1,23,45,678.90");
    expect(intlPaise(-50)).toBe("-₹0.50");
  });

  it("equals Intl en-IN currency formatting for any amount up to 10^15 paise", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -(10 ** 15), max: 10 ** 15 }),
          // Short amounts too, where most of the grouping edges are.
          fc.integer({ min: -10_000_000, max: 10_000_000 }),
        ),
        (paise) => {
          expect(formatPaise(paise)).toBe(intlPaise(paise));
        },
      ),
      { numRuns: 10_000 },
    );
  });
});
