import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shareOf } from "~/lib/money";
import { type CancellationInput, cancellationOutcome } from "./cancellation";
import {
  BALANCE_DUE_DAYS_CHOICES,
  DEFAULT_BALANCE_DUE_DAYS,
  DEFAULT_DEPOSIT_BPS,
  DEFAULT_POLICY,
  DEPOSIT_BPS_CHOICES,
  isPolicyCode,
  POLICY_CODES,
  policyTerms,
} from "./policies";
import type { CancellationTerms, PolicyCode } from "./terms-types";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The tables as agreed (docs: money-and-terms §2.4), in percent, written out rather than derived. */
const TABLE: Record<PolicyCode, number[]> = {
  //        ≥60 d  30–60 d  14–30 d  7–14 d  48 h–7 d  <48 h
  flexible: [0, 0, 0, 0, 25, 50],
  moderate: [10, 10, 30, 50, 100, 100],
  strict: [30, 50, 100, 100, 100, 100],
};

const EVENT = new Date("2027-02-10T14:30:00Z");
const TOTAL = 10_000_000; // ₹1,00,000.00

function outcome(overrides: Partial<CancellationInput> & { policy?: PolicyCode } = {}) {
  const { policy = "moderate", ...rest } = overrides;
  return cancellationOutcome({
    cancellation: policyTerms(policy),
    totalPaise: TOTAL,
    paidPaise: TOTAL,
    acceptedAt: new Date(EVENT.getTime() - 100 * DAY),
    eventStartAt: EVENT,
    canceller: "client",
    at: new Date(EVENT.getTime() - 90 * DAY),
    ...rest,
  });
}

/** Each band edge, exactly and one minute either side: [label, notice in minutes, band index]. */
const EDGES: [string, number, number][] = [
  [60 * 24, 0],
  [30 * 24, 1],
  [14 * 24, 2],
  [7 * 24, 3],
  [48, 4],
].flatMap(([hours = 0, band = 0]) => [
  [`${hours} h + 1 min`, hours * 60 + 1, band],
  [`exactly ${hours} h`, hours * 60, band],
  [`${hours} h − 1 min`, hours * 60 - 1, band + 1],
]);

const ROWS = POLICY_CODES.flatMap((policy) =>
  [...EDGES, ["the event starting now", 0, 5] as [string, number, number]].map(
    ([label, minutes, band]) => ({ policy, label, minutes, percent: TABLE[policy][band] ?? -1 }),
  ),
);

describe("policyTerms", () => {
  it("holds the moderate policy exactly", () => {
    expect(policyTerms("moderate")).toEqual({
      policy: "moderate",
      policyName: "Moderate",
      policyVersion: 1,
      clientCharges: [
        { minNoticeHours: 1440, chargeBps: 1000 },
        { minNoticeHours: 720, chargeBps: 1000 },
        { minNoticeHours: 336, chargeBps: 3000 },
        { minNoticeHours: 168, chargeBps: 5000 },
        { minNoticeHours: 48, chargeBps: 10_000 },
        { minNoticeHours: 0, chargeBps: 10_000 },
      ],
      coolingOffHours: 24,
      coolingOffMinNoticeHours: 168,
      artistCancels: "fullRefund",
    });
  });

  it.each(POLICY_CODES)("%s: the table's charges, never less for less notice", (code) => {
    const terms = policyTerms(code);
    expect(terms.policyName).toBe(code[0]?.toUpperCase() + code.slice(1));
    expect(terms.clientCharges.map((b) => b.chargeBps / 100)).toEqual(TABLE[code]);
    const charges = terms.clientCharges.map((b) => b.chargeBps);
    expect(charges).toEqual([...charges].sort((a, b) => a - b));
  });

  it("hands out a fresh copy each time", () => {
    const terms = policyTerms("strict");
    (terms.clientCharges[0] as { chargeBps: number }).chargeBps = 0;
    expect(policyTerms("strict").clientCharges[0]?.chargeBps).toBe(3000);
  });

  it("knows its codes, defaults and choices", () => {
    expect(POLICY_CODES).toEqual(["flexible", "moderate", "strict"]);
    expect(DEFAULT_POLICY).toBe("moderate");
    expect(isPolicyCode("strict")).toBe(true);
    for (const bad of ["Strict", "", "toString", null, 1]) expect(isPolicyCode(bad)).toBe(false);
    expect(DEPOSIT_BPS_CHOICES).toEqual([
      0, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500, 5000, 5500, 6000, 6500, 7000, 7500, 8000,
      8500, 9000, 9500, 10_000,
    ]);
    expect(DEPOSIT_BPS_CHOICES).toContain(DEFAULT_DEPOSIT_BPS);
    expect(DEFAULT_DEPOSIT_BPS).toBe(3000);
    expect(BALANCE_DUE_DAYS_CHOICES).toEqual([0, 3, 7, 14, 28]);
    expect(DEFAULT_BALANCE_DUE_DAYS).toBe(7);
  });
});

describe("cancellationOutcome: a client cancelling at each band edge", () => {
  it.each(ROWS)("$policy, $label before the event: $percent%", ({ policy, minutes, percent }) => {
    const result = outcome({ policy, at: new Date(EVENT.getTime() - minutes * MINUTE) });
    expect(result.noticeHours).toBe(Math.floor(minutes / 60));
    expect(result.coolingOff).toBe(false);
    expect(result.chargeBps).toBe(percent * 100);
    expect(result.band?.chargeBps).toBe(percent * 100);
    expect(result.chargePaise).toBe((TOTAL * percent) / 100);
    expect(result.keptPaise).toBe((TOTAL * percent) / 100);
    expect(result.refundPaise).toBe(TOTAL - (TOTAL * percent) / 100);
  });

  it("counts a cancellation after the start as no notice", () => {
    const result = outcome({ at: new Date(EVENT.getTime() + 3 * HOUR) });
    expect(result.noticeHours).toBe(0);
    expect(result.band).toEqual({ minNoticeHours: 0, chargeBps: 10_000 });
  });

  it("keeps no more than was paid: a 30% deposit against a 50% charge is kept, nothing owed", () => {
    const result = outcome({ paidPaise: 3_000_000, at: new Date(EVENT.getTime() - 10 * DAY) });
    expect(result).toMatchObject({ chargePaise: 5_000_000, keptPaise: 3_000_000, refundPaise: 0 });
  });

  it("refunds what was paid above the charge", () => {
    const result = outcome({ paidPaise: 3_000_000, at: new Date(EVENT.getTime() - 40 * DAY) });
    expect(result).toMatchObject({
      chargePaise: 1_000_000,
      keptPaise: 1_000_000,
      refundPaise: 2_000_000,
    });
  });

  it("rounds the charge half up to the paisa", () => {
    const result = outcome({
      totalPaise: 10_005,
      paidPaise: 10_005,
      policy: "flexible",
      at: new Date(EVENT.getTime() - HOUR),
    });
    expect(result.chargePaise).toBe(5003); // 5002.5
    expect(result.refundPaise).toBe(5002);
  });
});

describe("cancellationOutcome: cooling-off", () => {
  const accepted = new Date(EVENT.getTime() - 30 * DAY);
  const sinceAccepted = (ms: number) => new Date(accepted.getTime() + ms);

  it.each([
    ["23 h 59 min", 23 * HOUR + 59 * MINUTE, true],
    ["exactly 24 h", 24 * HOUR, true],
    ["24 h and 1 ms", 24 * HOUR + 1, false],
    ["24 h 1 min", 24 * HOUR + MINUTE, false],
  ])("cancelled %s after accepting: cooling-off %s", (_label, ms, coolingOff) => {
    const result = outcome({ acceptedAt: accepted, at: sinceAccepted(ms) });
    expect(result.coolingOff).toBe(coolingOff);
    // About 29 days' notice: moderate's 14–30 day band, 30%, unless cooling-off applies.
    expect(result.band?.chargeBps).toBe(3000);
    expect(result.chargePaise).toBe(coolingOff ? 0 : 3_000_000);
    expect(result.refundPaise).toBe(coolingOff ? TOTAL : 7_000_000);
  });

  it("applies with exactly 7 days' notice, not with a minute less", () => {
    const at = sinceAccepted(HOUR);
    const exactly = outcome({
      acceptedAt: accepted,
      at,
      eventStartAt: new Date(at.getTime() + 7 * DAY),
    });
    expect(exactly).toMatchObject({ coolingOff: true, chargePaise: 0, refundPaise: TOTAL });
    const short = outcome({
      acceptedAt: accepted,
      at,
      eventStartAt: new Date(at.getTime() + 7 * DAY - MINUTE),
    });
    expect(short).toMatchObject({ coolingOff: false, chargeBps: 10_000, refundPaise: 0 });
  });

  it("is refused when the event is less than 7 days away, for every policy", () => {
    for (const policy of POLICY_CODES) {
      const at = sinceAccepted(HOUR);
      const result = outcome({
        policy,
        acceptedAt: accepted,
        at,
        eventStartAt: new Date(at.getTime() + 3 * DAY),
      });
      expect(result.coolingOff).toBe(false);
      expect(result.chargeBps).toBe((TABLE[policy][4] ?? -1) * 100);
    }
  });

  it("is the client's: an artist cancelling is a full refund anyway", () => {
    const result = outcome({ acceptedAt: accepted, at: sinceAccepted(HOUR), canceller: "artist" });
    expect(result.coolingOff).toBe(false);
  });
});

describe("cancellationOutcome: the artist cancels", () => {
  it.each(POLICY_CODES)("%s, an hour before the event: everything paid comes back", (policy) => {
    const result = outcome({
      policy,
      canceller: "artist",
      paidPaise: 3_000_000,
      at: new Date(EVENT.getTime() - HOUR),
    });
    expect(result).toEqual({
      noticeHours: 1,
      chargeBps: 0,
      chargePaise: 0,
      refundPaise: 3_000_000,
      keptPaise: 0,
      coolingOff: false,
      band: null,
    });
  });
});

describe("cancellationOutcome: programmer errors", () => {
  const badTerms = (change: Partial<CancellationTerms>) => ({
    ...policyTerms("moderate"),
    ...change,
  });

  it.each<[string, Partial<CancellationInput>]>([
    ["a fractional total", { totalPaise: 100.5 }],
    ["a negative total", { totalPaise: -1, paidPaise: 0 }],
    ["paid above the total", { paidPaise: TOTAL + 1 }],
    ["a negative payment", { paidPaise: -1 }],
    ["an unsafe total", { totalPaise: 2 ** 53, paidPaise: 0 }],
    ["an invalid date", { at: new Date("nonsense") }],
    [
      "a cancellation before the acceptance",
      {
        acceptedAt: new Date(EVENT.getTime() - 10 * DAY),
        at: new Date(EVENT.getTime() - 11 * DAY),
      },
    ],
    ["an unknown canceller", { canceller: "venue" as "client" }],
    ["no bands", { cancellation: badTerms({ clientCharges: [] }) }],
    [
      "bands not ending at 0",
      { cancellation: badTerms({ clientCharges: [{ minNoticeHours: 48, chargeBps: 0 }] }) },
    ],
    [
      "bands out of order",
      {
        cancellation: badTerms({
          clientCharges: [
            { minNoticeHours: 48, chargeBps: 0 },
            { minNoticeHours: 720, chargeBps: 0 },
            { minNoticeHours: 0, chargeBps: 0 },
          ],
        }),
      },
    ],
    [
      "a charge above 100%",
      { cancellation: badTerms({ clientCharges: [{ minNoticeHours: 0, chargeBps: 10_001 }] }) },
    ],
    ["negative cooling-off", { cancellation: badTerms({ coolingOffHours: -1 }) }],
  ])("throws a TypeError on %s", (_label, change) => {
    expect(() => outcome(change)).toThrow(TypeError);
  });
});

describe("cancellationOutcome: properties", () => {
  const START = Date.parse("2026-01-01T00:00:00Z");
  const amounts = fc
    .integer({ min: 10_000, max: 2_500_000_000 })
    .chain((total) =>
      fc.record({ total: fc.constant(total), paid: fc.integer({ min: 0, max: total }) }),
    );
  const policy = fc.constantFrom(...POLICY_CODES);
  /** Acceptance, then the event anywhere from 10 days before to 400 days after it. */
  const times = fc.record({
    acceptedAt: fc.integer({ min: START, max: START + 365 * DAY }),
    eventAfter: fc.integer({ min: -10 * DAY, max: 400 * DAY }),
  });
  const delay = fc.integer({ min: 0, max: 420 * DAY });

  function run(
    p: { total: number; paid: number },
    code: PolicyCode,
    t: { acceptedAt: number; eventAfter: number },
    wait: number,
    canceller: "client" | "artist" = "client",
  ) {
    return cancellationOutcome({
      cancellation: policyTerms(code),
      totalPaise: p.total,
      paidPaise: p.paid,
      acceptedAt: new Date(t.acceptedAt),
      eventStartAt: new Date(t.acceptedAt + t.eventAfter),
      canceller,
      at: new Date(t.acceptedAt + wait),
    });
  }

  it("splits exactly what was paid into non-negative whole paise, by the agreed charge", () => {
    fc.assert(
      fc.property(amounts, policy, times, delay, (p, code, t, wait) => {
        const result = run(p, code, t, wait);
        for (const value of [
          result.refundPaise,
          result.keptPaise,
          result.chargePaise,
          result.noticeHours,
        ]) {
          expect(Number.isSafeInteger(value)).toBe(true);
          expect(value).toBeGreaterThanOrEqual(0);
        }
        expect(result.refundPaise + result.keptPaise).toBe(p.paid);
        expect(result.refundPaise).toBeLessThanOrEqual(p.paid);
        expect(result.keptPaise).toBeLessThanOrEqual(result.chargePaise);
        expect(result.chargePaise).toBe(shareOf(p.total, result.chargeBps));
        expect(result.chargeBps).toBe(result.coolingOff ? 0 : result.band?.chargeBps);
      }),
      { numRuns: 2000 },
    );
  });

  it("never refunds more for a later cancellation", () => {
    fc.assert(
      fc.property(amounts, policy, times, delay, delay, (p, code, t, a, b) => {
        const earlier = run(p, code, t, Math.min(a, b));
        const later = run(p, code, t, Math.max(a, b));
        expect(later.refundPaise).toBeLessThanOrEqual(earlier.refundPaise);
        expect(later.noticeHours).toBeLessThanOrEqual(earlier.noticeHours);
      }),
      { numRuns: 2000 },
    );
  });

  it("refunds everything when the artist cancels", () => {
    fc.assert(
      fc.property(amounts, policy, times, delay, (p, code, t, wait) => {
        const result = run(p, code, t, wait, "artist");
        expect(result).toMatchObject({
          refundPaise: p.paid,
          keptPaise: 0,
          chargePaise: 0,
          band: null,
        });
      }),
    );
  });
});
