import { describe, expect, it } from "vitest";
import { slugify } from "./slug";

describe("slugify", () => {
  it("lower-cases, turns spaces into hyphens and drops other characters", () => {
    expect(slugify("Asha  Rao & The Band!")).toBe("asha-rao-the-band");
    expect(slugify("Beyoncé")).toBe("beyonce");
    expect(slugify("  ")).toBe("artist");
  });
});
