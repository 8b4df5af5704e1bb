import { describe, expect, it } from "vitest";
import {
  addMonths,
  dateForGridKey,
  daysInMonth,
  formatLongDate,
  formatMonth,
  formatShortDate,
  isIsoMonth,
  monthGrid,
  monthOf,
  weekdayOf,
} from "~/lib/dates";

describe("monthGrid", () => {
  it("lays out weeks Sunday first with null padding", () => {
    // December 2026 starts on a Tuesday and ends on a Thursday.
    const weeks = monthGrid("2026-12");
    expect(weeks).toHaveLength(5);
    expect(weeks[0]).toEqual([
      null,
      null,
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
      "2026-12-04",
      "2026-12-05",
    ]);
    expect(weeks[4]).toEqual([
      "2026-12-27",
      "2026-12-28",
      "2026-12-29",
      "2026-12-30",
      "2026-12-31",
      null,
      null,
    ]);
    for (const week of weeks) expect(week).toHaveLength(7);
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
  });

  it("handles a month that fills exactly four weeks and one that needs six", () => {
    // February 2026 starts on a Sunday and has 28 days.
    const feb = monthGrid("2026-02");
    expect(feb).toHaveLength(4);
    expect(feb[0]![0]).toBe("2026-02-01");
    expect(feb[3]![6]).toBe("2026-02-28");
    // August 2026 starts on a Saturday and has 31 days.
    const aug = monthGrid("2026-08");
    expect(aug).toHaveLength(6);
    expect(aug[0]).toEqual([null, null, null, null, null, null, "2026-08-01"]);
    expect(aug[5]![1]).toBe("2026-08-31");
  });

  it("knows leap years", () => {
    expect(daysInMonth("2028-02")).toBe(29);
    expect(daysInMonth("2100-02")).toBe(28);
    expect(monthGrid("2028-02").flat().filter(Boolean)).toHaveLength(29);
  });

  it("rejects malformed months", () => {
    expect(() => monthGrid("2026-13")).toThrow(RangeError);
    expect(() => monthGrid("2026-1")).toThrow(RangeError);
    expect(isIsoMonth("2026-12")).toBe(true);
    expect(isIsoMonth("2026-00")).toBe(false);
  });
});

describe("month arithmetic", () => {
  it("moves across year boundaries", () => {
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2026-01", -1)).toBe("2025-12");
    expect(addMonths("2026-05", -17)).toBe("2024-12");
    expect(addMonths("2026-05", 0)).toBe("2026-05");
  });

  it("takes the month of a date and its weekday", () => {
    expect(monthOf("2026-12-31")).toBe("2026-12");
    expect(weekdayOf("2026-12-01")).toBe(2);
    expect(weekdayOf("2026-02-01")).toBe(0);
    expect(() => monthOf("2026-02-30")).toThrow(RangeError);
  });
});

describe("formatting", () => {
  it("formats dates as month day, year without time-zone shifts", () => {
    expect(formatLongDate("2026-12-01")).toBe("December 1, 2026");
    expect(formatLongDate("2027-01-01")).toBe("January 1, 2027");
    expect(formatLongDate("2026-12-31")).toBe("December 31, 2026");
  });

  it("formats months and short weekday dates", () => {
    expect(formatMonth("2026-12")).toBe("December 2026");
    expect(formatShortDate("2025-12-01")).toBe("Mon, Dec 1");
    expect(formatShortDate("2026-12-01")).toBe("Tue, Dec 1");
  });
});

describe("dateForGridKey", () => {
  it("moves by day, week, week edge and month", () => {
    expect(dateForGridKey("2026-12-31", "ArrowRight")).toBe("2027-01-01");
    expect(dateForGridKey("2026-12-01", "ArrowLeft")).toBe("2026-11-30");
    expect(dateForGridKey("2026-12-03", "ArrowUp")).toBe("2026-11-26");
    expect(dateForGridKey("2026-12-30", "ArrowDown")).toBe("2027-01-06");
    // 2026-12-03 is a Thursday.
    expect(dateForGridKey("2026-12-03", "Home")).toBe("2026-11-29");
    expect(dateForGridKey("2026-12-03", "End")).toBe("2026-12-05");
    expect(dateForGridKey("2027-01-31", "PageDown")).toBe("2027-02-28");
    expect(dateForGridKey("2026-03-31", "PageUp")).toBe("2026-02-28");
    expect(dateForGridKey("2026-12-03", "Enter")).toBeNull();
  });
});

describe("wall-clock formatting", () => {
  it("writes times as 7:00 PM and durations in words", async () => {
    const { formatTime, formatDuration } = await import("./dates");
    expect(formatTime("19:00")).toBe("7:00 PM");
    expect(formatTime("00:05:00")).toBe("12:05 AM");
    expect(formatTime("12:30")).toBe("12:30 PM");
    expect(formatDuration(1)).toBe("1 hour");
    expect(formatDuration(2.5)).toBe("2.5 hours");
  });

  it("shows an instant as the artist's wall clock, whoever looks", async () => {
    const { formatWallClock, zonedDateTimeToUtc, wallClockIn } = await import("./dates");
    const at = zonedDateTimeToUtc("2026-11-15", "20:00", "Asia/Kolkata");
    expect(at.toISOString()).toBe("2026-11-15T14:30:00.000Z");
    expect(wallClockIn(at, "Asia/Kolkata")).toEqual({ date: "2026-11-15", time: "20:00" });
    expect(formatWallClock(at, "Asia/Kolkata")).toBe("November 15, 2026, 8:00 PM");
    expect(formatWallClock(at, "America/Los_Angeles", { withZone: true })).toBe(
      "November 15, 2026, 6:30 AM PST",
    );
  });
});
