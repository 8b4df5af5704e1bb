import { describe, expect, it } from "vitest";
import { formatCount } from "./number-text";

describe("formatCount", () => {
  it.each([0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789, -4321])(
    "writes %d as Intl's en-US does",
    (count) => {
      expect(formatCount(count)).toBe(count.toLocaleString("en-US"));
    },
  );
});
