/**
 * Money in code: amounts are whole paise (₹1 = 100 paise) in plain safe integers, never rupee
 * floats. Shares and splits are computed with BigInt, so no product can lose a paisa however large
 * the amount. Showing an amount to people is `formatPaise` in `money-text.ts`.
 */

/** A whole number of paise (₹1 = 100 paise); negative only in ledger arithmetic. */
export type Paise = number;

/** Throws unless `value` is a safe integer: the one check every amount passes where it enters. */
export function assertPaise(value: unknown, name = "Amount"): asserts value is Paise {
  if (typeof value !== "number" || !Number.isSafeInteger(value))
    throw new TypeError(`${name} is not a whole number of paise: ${String(value)}`);
}

// "4500", "4,500.5", "₹ 1,00,000.00", ".5", "12.": commas must group as en-IN (12,34,567) or
// en-US (1,234,567) does, so "4500,50" (a decimal comma elsewhere) is refused, not read as 4,50,050.
const RUPEES_RE = /^(?:₹\s*)?(\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3}|\d*)(?:\.(\d{0,2}))?$/;

/**
 * A rupee amount as a person types it, in paise, read as text (never `x * 100` on a float):
 * "4,500.5" → 450050. Null for an empty, negative or malformed amount, more than two decimals, or
 * more paise than a safe integer holds; callers check their own range.
 */
export function parseRupees(text: string): Paise | null {
  const match = RUPEES_RE.exec(text.trim());
  if (!match) return null;
  const whole = (match[1] ?? "").replaceAll(",", "");
  const fraction = match[2] ?? "";
  if (whole === "" && fraction === "") return null;
  // Beyond 16 digits of rupees no amount is safe; stop before building a huge BigInt.
  if (whole.replace(/^0+/, "").length > 16) return null;
  const paise = BigInt(whole || "0") * 100n + BigInt(fraction.padEnd(2, "0"));
  return paise <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(paise) : null;
}

/**
 * A numeric(…, 2) rupee value read from the database (an hourly rate of 4500.5) in paise. Rounding
 * `rupees * 100` is exact here: the value has at most two decimals, and below ₹10^12 the float
 * nearest it, times 100, lies far within half a paisa of the true whole number.
 */
export function rupeesToPaise(rupees: number): Paise {
  if (!Number.isFinite(rupees)) throw new TypeError(`Not an amount in rupees: ${rupees}`);
  const paise = Math.round(rupees * 100);
  assertPaise(paise);
  // Math.round(-0.001) is -0; an amount has no sign of zero.
  return paise === 0 ? 0 : paise;
}

/**
 * `bps` basis points (3000 = 30 %) of `total`, rounded half away from zero (half-up on the
 * amount): shareOf(5, 5000) = 3. `bps` is a whole number from 0 to 10000.
 */
export function shareOf(total: Paise, bps: number): Paise {
  assertPaise(total, "Total");
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000)
    throw new TypeError(`Basis points must be a whole number from 0 to 10000: ${bps}`);
  const magnitude = (BigInt(Math.abs(total)) * BigInt(bps) * 2n + 10_000n) / 20_000n;
  const share = Number(magnitude);
  return total < 0 && share !== 0 ? -share : share;
}

/**
 * `total` split in proportion to `weights` by largest remainder: each part is its exact share
 * rounded down, and the paise left over go one each to the largest remainders (the earlier part on
 * a tie), so the parts always add up to `total`. allocate(100, [1, 1, 1]) = [34, 33, 33].
 */
export function allocate(total: Paise, weights: readonly number[]): Paise[] {
  assertPaise(total, "Total");
  for (const weight of weights) {
    if (!Number.isSafeInteger(weight) || weight < 0)
      throw new TypeError(`Weights must be whole numbers of 0 or more: ${weight}`);
  }
  const sum = weights.reduce((a, w) => a + BigInt(w), 0n);
  if (sum === 0n) throw new TypeError("Allocating needs at least one weight above 0");
  // A negative total is split as its magnitude, then every part negated.
  const amount = BigInt(Math.abs(total));
  const parts = weights.map((w, index) => {
    const exact = amount * BigInt(w);
    return { index, floor: exact / sum, remainder: exact % sum };
  });
  let left = amount - parts.reduce((a, p) => a + p.floor, 0n);
  const byRemainder = [...parts].sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const part of byRemainder) {
    if (left === 0n) break;
    part.floor += 1n;
    left -= 1n;
  }
  return parts.map((p) => {
    const value = Number(p.floor);
    return total < 0 && value !== 0 ? -value : value;
  });
}

/** Paise as a form field's value: 450050 → "4500.50", no ₹ and no grouping (parseRupees reads it). */
export function paiseToRupeesText(paise: Paise): string {
  assertPaise(paise);
  const abs = Math.abs(paise);
  const sign = paise < 0 ? "-" : "";
  const rest = abs % 100;
  return `${sign}${(abs - rest) / 100}.${String(rest).padStart(2, "0")}`;
}
