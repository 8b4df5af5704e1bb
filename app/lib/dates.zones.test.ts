import { describe, expect, it } from "vitest";
import {
  formatMinutes,
  formatWallClock,
  toZonedInputValue,
  zoneAbbreviation,
  zonedDateTimeToUtc,
  zonedInputToUtc,
} from "./dates";

describe("zone names and wall-clock values", () => {
  const at = zonedDateTimeToUtc("2026-11-15", "20:00", "Asia/Kolkata");

  it("names India's zone IST (the en-US data only knows GMT+5:30), the same on every runtime", () => {
    expect(zoneAbbreviation("Asia/Kolkata", at)).toBe("IST");
    expect(zoneAbbreviation("Asia/Calcutta", at)).toBe("IST");
    expect(zoneAbbreviation("America/Los_Angeles", at)).toBe("PST");
    expect(zoneAbbreviation("UTC", at)).toBe("UTC");
    expect(formatWallClock(at, "Asia/Kolkata", { withZone: true })).toBe(
      "November 15, 2026, 8:00 PM IST",
    );
  });

  it("turns a datetime-local value into an instant in a zone and back", () => {
    expect(zonedInputToUtc("2026-11-15T20:00", "Asia/Kolkata")).toEqual(at);
    expect(toZonedInputValue(at, "Asia/Kolkata")).toBe("2026-11-15T20:00");
    expect(toZonedInputValue(at, "America/Los_Angeles")).toBe("2026-11-15T06:30");
    // Summer time: 12:00 in New York in July is 16:00 UTC.
    expect(zonedInputToUtc("2026-07-01T12:00", "America/New_York").toISOString()).toBe(
      "2026-07-01T16:00:00.000Z",
    );
  });

  it("writes minutes as hours in words", () => {
    expect(formatMinutes(60)).toBe("1 hour");
    expect(formatMinutes(90)).toBe("1.5 hours");
    expect(formatMinutes(150)).toBe("2.5 hours");
  });
});
