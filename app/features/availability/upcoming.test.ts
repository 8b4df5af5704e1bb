import { describe, expect, it } from "vitest";
import type { AvailabilityEntry, AvailabilityStatus } from "./availability";
import { relativeDayLabel, upcomingEvents } from "./upcoming";

const entry = (date: string, status: AvailabilityStatus, notes: string | null = null) =>
  ({ date, status, notes }) satisfies AvailabilityEntry;

describe("relativeDayLabel", () => {
  it("names nearby days and otherwise shows weekday and date", () => {
    expect(relativeDayLabel("2025-12-01", "2025-12-01")).toBe("Today");
    expect(relativeDayLabel("2025-12-02", "2025-12-01")).toBe("Tomorrow");
    expect(relativeDayLabel("2025-11-30", "2025-12-01")).toBe("Yesterday");
    expect(relativeDayLabel("2025-12-08", "2025-12-01")).toBe("Mon, Dec 8");
    expect(relativeDayLabel("2026-01-01", "2025-12-31")).toBe("Tomorrow");
  });
});

describe("upcomingEvents", () => {
  const today = "2026-12-30";

  it("is empty without future booked or available days", () => {
    expect(upcomingEvents([], today)).toEqual([]);
    expect(
      upcomingEvents([entry("2026-12-29", "available"), entry("2026-12-31", "unavailable")], today),
    ).toEqual([]);
  });

  it("keeps at most five future booked or available days, sorted, from today on", () => {
    const entries = [
      entry("2027-01-10", "available"),
      entry("2026-12-29", "booked"),
      entry("2027-01-02", "unavailable"),
      entry("2027-01-01", "booked", "Wedding"),
      entry("2026-12-30", "available"),
      entry("2027-01-05", "available"),
      entry("2026-12-31", "booked"),
      entry("2027-01-07", "booked"),
      entry("2027-01-12", "available"),
    ];
    expect(upcomingEvents(entries, today)).toEqual([
      { date: "2026-12-30", status: "available", label: "Today" },
      { date: "2026-12-31", status: "booked", label: "Tomorrow" },
      { date: "2027-01-01", status: "booked", label: "Fri, Jan 1" },
      { date: "2027-01-05", status: "available", label: "Tue, Jan 5" },
      { date: "2027-01-07", status: "booked", label: "Thu, Jan 7" },
    ]);
  });

  it("lets a later entry for the same date win", () => {
    expect(
      upcomingEvents([entry("2027-01-03", "available"), entry("2027-01-03", "booked")], today),
    ).toEqual([{ date: "2027-01-03", status: "booked", label: "Sun, Jan 3" }]);
    expect(
      upcomingEvents([entry("2027-01-03", "available"), entry("2027-01-03", "unavailable")], today),
    ).toEqual([]);
  });
});
