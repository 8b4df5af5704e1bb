import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { policyTerms } from "./policies";
import { balanceDueText, depositText, policySummary } from "./terms-text";

describe("policySummary", () => {
  it("says the moderate policy in plain words", () => {
    expect(policySummary(policyTerms("moderate"))).toEqual([
      "60 days or more before: the client pays 10% of the total",
      "30 days to 60 days before: the client pays 10% of the total",
      "14 days to 30 days before: the client pays 30% of the total",
      "7 days to 14 days before: the client pays 50% of the total",
      "48 hours to 7 days before: the client pays the full total",
      "Less than 48 hours before: the client pays the full total",
      "Cancelled within 24 hours of agreeing, and at least 7 days before the event: nothing to pay",
      "If the artist cancels: everything paid is returned",
    ]);
  });

  it("says 'nothing to pay' for a band without a charge", () => {
    const lines = policySummary(policyTerms("flexible"));
    expect(lines[0]).toBe("60 days or more before: nothing to pay");
    expect(lines[4]).toBe("48 hours to 7 days before: the client pays 25% of the total");
    expect(lines[5]).toBe("Less than 48 hours before: the client pays 50% of the total");
  });

  it("writes odd hours and shares as they are", () => {
    const terms = {
      ...policyTerms("strict"),
      clientCharges: [
        { minNoticeHours: 36, chargeBps: 1250 },
        { minNoticeHours: 1, chargeBps: 3333 },
        { minNoticeHours: 0, chargeBps: 10_000 },
      ],
    };
    expect(policySummary(terms).slice(0, 3)).toEqual([
      "36 hours or more before: the client pays 12.5% of the total",
      "1 hour to 36 hours before: the client pays 33.33% of the total",
      "Less than 1 hour before: the client pays the full total",
    ]);
    const oneBand = { ...terms, clientCharges: [{ minNoticeHours: 0, chargeBps: 0 }] };
    expect(policySummary(oneBand)[0]).toBe("Any time before: nothing to pay");
  });
});

describe("depositText and balanceDueText", () => {
  it("say the payment terms in plain words", () => {
    expect(depositText(3000)).toBe("30% deposit when the booking is agreed");
    expect(depositText(1500)).toBe("15% deposit when the booking is agreed");
    expect(depositText(0)).toBe("No deposit");
    expect(depositText(10_000)).toBe("Full payment when the booking is agreed");
    expect(balanceDueText(7)).toBe("Balance due 7 days before the event");
    expect(balanceDueText(1)).toBe("Balance due 1 day before the event");
    expect(balanceDueText(0)).toBe("Balance due on the day of the event");
  });
});

it("stays light for public pages: no Intl, and nothing imported but types", () => {
  const source = readFileSync(new URL("./terms-text.ts", import.meta.url), "utf8");
  expect(source).not.toMatch(/\bIntl\./);
  const imports = [...source.matchAll(/^import\b.*$/gm)].map((m) => m[0]);
  expect(imports.every((line) => line.startsWith("import type "))).toBe(true);
});
