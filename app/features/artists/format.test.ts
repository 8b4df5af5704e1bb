import { describe, expect, it } from "vitest";
import { formatHours } from "~/lib/dates";
import { formatRating, initials } from "./format";

describe("formatRating", () => {
  it("says New without ratings and one decimal otherwise", () => {
    expect(formatRating(0)).toBe("New");
    expect(formatRating(4.666)).toBe("4.7");
    expect(formatRating(5)).toBe("5.0");
  });
});

describe("initials", () => {
  it("takes up to two initials", () => {
    expect(initials("maya lindqvist quartet")).toBe("ML");
    expect(initials("")).toBe("?");
  });
});

describe("formatHours", () => {
  it("turns minutes into hours with one decimal at most", () => {
    expect(formatHours(90)).toBe("1.5");
    expect(formatHours(120)).toBe("2");
    expect(formatHours(20)).toBe("0.3");
  });
});
