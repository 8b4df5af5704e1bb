import { describe, expect, it } from "vitest";
import { BookingRequestSchema } from "./bookings.schema";

const valid = {
  artistId: "7f0c1a52-2a43-4a5e-9d5e-0d4b8f3f8f11",
  eventDate: "2030-06-15",
  durationHours: "2",
  venue: "Town Hall",
};

describe("BookingRequestSchema: the event date", () => {
  it.each(["2026-13-01", "9999-99-99", "2026-02-30", "2026-04-31", "2026-1-01", "tomorrow"])(
    "refuses %s as an invalid date, on the date field",
    (eventDate) => {
      const parsed = BookingRequestSchema.safeParse({ ...valid, eventDate });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toContainEqual([
        "eventDate",
        "Please choose a valid date",
      ]);
    },
  );

  it.each(["2030-06-15", "2028-02-29"])("accepts the real date %s", (eventDate) => {
    expect(BookingRequestSchema.safeParse({ ...valid, eventDate }).success).toBe(true);
  });
});
