import { describe, expect, it } from "vitest";
import { financialYearOf } from "./financial-year";

describe("financialYearOf", () => {
  it("turns at midnight on 1 April in India, not in UTC", () => {
    // 31 March 2027, 23:59 IST is 18:29 UTC; 1 April 00:00 IST is 18:30 UTC on 31 March.
    expect(financialYearOf(new Date("2027-03-31T18:29:00Z"))).toBe("2026-27");
    expect(financialYearOf(new Date("2027-03-31T18:29:59.999Z"))).toBe("2026-27");
    expect(financialYearOf(new Date("2027-03-31T18:30:00Z"))).toBe("2027-28");
  });

  it("holds the whole year from April to March", () => {
    expect(financialYearOf(new Date("2026-04-01T00:00:00+05:30"))).toBe("2026-27");
    expect(financialYearOf(new Date("2026-12-12T10:00:00Z"))).toBe("2026-27");
    expect(financialYearOf(new Date("2027-01-01T00:00:00+05:30"))).toBe("2026-27");
    expect(financialYearOf(new Date("2026-03-31T23:59:00+05:30"))).toBe("2025-26");
  });

  it("writes the closing year's last two digits, across a century too", () => {
    expect(financialYearOf(new Date("2099-06-01T00:00:00Z"))).toBe("2099-00");
    expect(financialYearOf(new Date("2009-06-01T00:00:00Z"))).toBe("2009-10");
  });

  it("judges in another zone when asked", () => {
    const instant = new Date("2027-03-31T20:00:00Z"); // 1 April 01:30 IST
    expect(financialYearOf(instant)).toBe("2027-28");
    expect(financialYearOf(instant, "UTC")).toBe("2026-27");
  });

  it("refuses an invalid date", () => {
    expect(() => financialYearOf(new Date("nope"))).toThrow(RangeError);
  });
});
