// The named cancellation policies as data. An agreement copies its policy's terms whole, so a later
// version of a table changes no agreement already made: change a table only with a new
// policyVersion.
import type { CancellationTerms, ChargeBand, PolicyCode } from "./terms-types";

export const POLICY_CODES = [
  "flexible",
  "moderate",
  "strict",
] as const satisfies readonly PolicyCode[];

export const DEFAULT_POLICY: PolicyCode = "moderate";

const DAY = 24;

/** The notice (in hours) at which each band starts, longest first; the last band starts at 0. */
const BAND_STARTS = [60 * DAY, 30 * DAY, 14 * DAY, 7 * DAY, 48, 0] as const;

/** The client's charge in each band of BAND_STARTS, in basis points of the total. */
const POLICIES: Record<PolicyCode, { name: string; chargesBps: readonly number[] }> = {
  flexible: { name: "Flexible", chargesBps: [0, 0, 0, 0, 2500, 5000] },
  moderate: { name: "Moderate", chargesBps: [1000, 1000, 3000, 5000, 10_000, 10_000] },
  strict: { name: "Strict", chargesBps: [3000, 5000, 10_000, 10_000, 10_000, 10_000] },
};

/** A policy's terms, a fresh copy each time (an agreement freezes its own). */
export function policyTerms(code: PolicyCode): CancellationTerms {
  const policy = POLICIES[code];
  const clientCharges: ChargeBand[] = BAND_STARTS.map((minNoticeHours, i) => ({
    minNoticeHours,
    chargeBps: policy.chargesBps[i] ?? 10_000,
  }));
  return {
    policy: code,
    policyName: policy.name,
    policyVersion: 1,
    clientCharges,
    coolingOffHours: 24,
    coolingOffMinNoticeHours: 7 * DAY,
    artistCancels: "fullRefund",
  };
}

export function isPolicyCode(value: unknown): value is PolicyCode {
  return typeof value === "string" && (POLICY_CODES as readonly string[]).includes(value);
}

/** The deposit an artist may ask: none, or 10 % to 100 % in steps of 5 % (basis points). */
export const DEPOSIT_BPS_CHOICES: readonly number[] = [
  0,
  ...Array.from({ length: 19 }, (_, i) => 1000 + i * 500),
];

export const DEFAULT_DEPOSIT_BPS = 3000;

/** Days before the event the balance falls due; 0 = on the day. */
export const BALANCE_DUE_DAYS_CHOICES: readonly number[] = [0, 3, 7, 14, 28];

export const DEFAULT_BALANCE_DUE_DAYS = 7;
