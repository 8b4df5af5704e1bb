import { describe, expect, it } from "vitest";
import { DISCOVERY_LAST_PAGE } from "./artists.constants";
import { parseDiscoveryQuery } from "./artists.schema";

const pageOf = (page: string) => parseDiscoveryQuery(new URLSearchParams({ page })).page;

describe("a discovery address's page", () => {
  it("is the page asked for, up to the last one", () => {
    expect(pageOf("1")).toBe(1);
    expect(pageOf("7")).toBe(7);
    expect(pageOf(String(DISCOVERY_LAST_PAGE))).toBe(DISCOVERY_LAST_PAGE);
  });

  it("beyond the last page is the last page (decision 081)", () => {
    for (const page of [String(DISCOVERY_LAST_PAGE + 1), "1000", "9007199254740991"])
      expect(pageOf(page), page).toBe(DISCOVERY_LAST_PAGE);
  });

  it("anything that is not a page is the first", () => {
    for (const page of ["0", "-3", "2.5", "abc", "", "1e400", "9007199254740993", "1\u0000"])
      expect(pageOf(page), page).toBe(1);
  });
});
