import { describe, expect, it } from "vitest";
import { estimateTotal, formatRupees } from "./pricing";
import { bookingFormDates, quickPickDates } from "./quick-picks";

describe("quickPickDates", () => {
  it("offers up to six available dates from today, labelled", () => {
    const entries = [
      { date: "2026-11-20", status: "available" },
      { date: "2026-11-21", status: "available" },
      { date: "2026-11-22", status: "available" },
      { date: "2026-11-23", status: "booked" },
      { date: "2026-11-24", status: "unavailable" },
      ...["25", "26", "27", "28", "29", "30"].map((d) => ({
        date: `2026-11-${d}`,
        status: "available",
      })),
      { date: "2026-12-03", status: "available" },
    ];
    expect(quickPickDates(entries, "2026-11-21")).toEqual([
      { date: "2026-11-21", label: "Today" },
      { date: "2026-11-22", label: "Tomorrow" },
      { date: "2026-11-25", label: "Nov 25" },
      { date: "2026-11-26", label: "Nov 26" },
      { date: "2026-11-27", label: "Nov 27" },
      { date: "2026-11-28", label: "Nov 28" },
    ]);
  });
});

describe("estimateTotal", () => {
  it("is hours times the hourly rate, or ₹150 without one", () => {
    expect(estimateTotal(2.5, null)).toBe(375);
    expect(estimateTotal(1.5, 2500.5)).toBe(3750.75);
    expect(formatRupees(375)).toBe("₹375.00");
  });
});

describe("bookingFormDates", () => {
  it("offers only free days as quick picks and passes the busy ones on as blocked", () => {
    const entries = [
      { date: "2026-03-02", status: "available" },
      { date: "2026-03-03", status: "available" },
      { date: "2026-03-04", status: "booked" },
    ];
    const busy = { "2026-03-03": "booked", "2026-03-04": "booked" };
    expect(bookingFormDates(entries, busy, "2026-03-01")).toEqual({
      quickPicks: [{ date: "2026-03-02", label: "Tomorrow" }],
      blockedDates: busy,
      today: "2026-03-01",
    });
  });
});
