import { describe, expect, it } from "vitest";
import { AvailabilitySchema } from "./availability.schema";

describe("AvailabilitySchema", () => {
  it.each(["9999-99-99", "2026-13-01", "2026-02-30", "", "2026-1-1"])(
    "refuses the impossible date %j for both intents, on the date field",
    (date) => {
      for (const form of [
        { intent: "set", date, status: "available" },
        { intent: "clear", date },
      ]) {
        const parsed = AvailabilitySchema.safeParse(form);
        expect(parsed.success).toBe(false);
        expect(parsed.error?.issues[0]).toMatchObject({
          path: ["date"],
          message: "Please choose a valid date",
        });
      }
    },
  );

  it("accepts a real date with a known status", () => {
    expect(
      AvailabilitySchema.safeParse({ intent: "set", date: "2028-02-29", status: "unavailable" })
        .data,
    ).toEqual({ intent: "set", date: "2028-02-29", status: "unavailable", notes: null });
    expect(
      AvailabilitySchema.safeParse({ intent: "set", date: "2028-03-01", status: "maybe" }).success,
    ).toBe(false);
  });
});
