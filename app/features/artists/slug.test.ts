import { describe, expect, it } from "vitest";
import { slugify, uniqueSlug } from "./slug";

describe("slugify", () => {
  it("lower-cases, turns spaces into hyphens and drops other characters", () => {
    expect(slugify("Asha  Rao & The Band!")).toBe("asha-rao-the-band");
    expect(slugify("Beyoncé")).toBe("beyonce");
    expect(slugify("  ")).toBe("artist");
  });
});

describe("uniqueSlug", () => {
  it("adds -2, -3 on a clash", async () => {
    const taken = new Set(["maya", "maya-2"]);
    expect(await uniqueSlug("maya", async (s) => taken.has(s))).toBe("maya-3");
    expect(await uniqueSlug("ravi", async (s) => taken.has(s))).toBe("ravi");
  });
});
