import { describe, expect, it } from "vitest";
import { isSlug, slugify } from "./slug";

describe("slugify", () => {
  it("lower-cases, turns spaces into hyphens and drops other characters", () => {
    expect(slugify("Asha  Rao & The Band!")).toBe("asha-rao-the-band");
    expect(slugify("Beyoncé")).toBe("beyonce");
    expect(slugify("  ")).toBe("artist");
  });
});

describe("isSlug", () => {
  it("accepts what slugify makes and nothing else", () => {
    expect(isSlug(slugify("Asha Rao"))).toBe(true);
    expect(isSlug("asha-rao-2")).toBe(true);
    for (const bad of ["", "abc\u0000def", "Asha", "a b", "a/b", "x".repeat(201)]) {
      expect(isSlug(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
