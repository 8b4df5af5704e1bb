import { describe, expect, it } from "vitest";
import { addDays, todayIn } from "./dates";

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
