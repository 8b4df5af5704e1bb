import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "./safe-redirect";

describe("safeRedirectPath", () => {
  it.each([
    ["/bookings/1?tab=messages#m", "/bookings/1?tab=messages#m"],
    ["/artist/x", "/artist/x"],
    ["/a/../b", "/b"],
    ["/./settings", "/settings"],
    ["/.//evil.example", "/"],
    ["/./\\evil.example", "/"],
    ["/auth/../\\evil.example", "/"],
    ["/auth/..//evil.example", "/"],
    ["//evil.example", "/"],
    ["/\\evil.example", "/"],
    ["\\\\evil.example", "/"],
    ["https://evil.example", "/"],
    ["evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["/\t/evil.example", "/"],
    ["/\n/evil.example", "/"],
    ["/%2e%2e//evil.example", "/"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/x\u0000y", "/"],
    ["", "/"],
  ])("%j → %j", (input, expected) => {
    const out = safeRedirectPath(input);
    expect(out).toBe(expected);
    // Whatever comes out resolves to our own origin.
    expect(new URL(out, "https://gigledger.example").origin).toBe("https://gigledger.example");
  });

  it("falls back for non-strings and uses the given fallback", () => {
    expect(safeRedirectPath(null, "/dashboard")).toBe("/dashboard");
    expect(safeRedirectPath(undefined)).toBe("/");
    expect(safeRedirectPath(new File([], "x"), "/f")).toBe("/f");
  });
});
