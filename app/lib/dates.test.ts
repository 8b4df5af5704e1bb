import { describe, expect, it } from "vitest";
import { addDays, todayIn, zonedDateTimeToUtc } from "./dates";

describe("todayIn", () => {
  it("uses the given time zone, not the server's", () => {
    // 20:00 UTC on 1 March is already 2 March in Kolkata (UTC+5:30) and still 1 March in New York.
    const instant = new Date("2026-03-01T20:00:00Z");
    expect(todayIn("Asia/Kolkata", instant)).toBe("2026-03-02");
    expect(todayIn("America/New_York", instant)).toBe("2026-03-01");
  });
});

describe("addDays", () => {
  it("crosses month and year ends", () => {
    expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(addDays("2028-03-01", -1)).toBe("2028-02-29");
  });
});

describe("zonedDateTimeToUtc", () => {
  it("turns a local wall-clock time into the right instant", () => {
    expect(zonedDateTimeToUtc("2026-03-01", "19:30", "Asia/Kolkata").toISOString()).toBe(
      "2026-03-01T14:00:00.000Z",
    );
    expect(zonedDateTimeToUtc("2026-07-01", "12:00", "America/New_York").toISOString()).toBe(
      "2026-07-01T16:00:00.000Z",
    );
    expect(zonedDateTimeToUtc("2026-01-01", "12:00", "America/New_York").toISOString()).toBe(
      "2026-01-01T17:00:00.000Z",
    );
  });
});
