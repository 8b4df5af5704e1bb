import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import {
  canManagePortfolio,
  canViewPortfolio,
  countsAsVisit,
  type PortfolioAccess,
} from "./portfolio.policy";

const privatePortfolio: PortfolioAccess = { artistProfileId: "artist-1", isPublic: false };
const publicPortfolio: PortfolioAccess = { artistProfileId: "artist-1", isPublic: true };

const actors = {
  visitor: null,
  owner: { id: "user-owner", roles: ["artist"], artistProfileId: "artist-1" },
  otherArtist: { id: "user-other", roles: ["artist"], artistProfileId: "artist-9" },
  client: { id: "user-client", roles: ["client"], artistProfileId: null },
  admin: { id: "user-admin", roles: ["admin"], artistProfileId: null },
} satisfies Record<string, Actor>;
type Who = keyof typeof actors;

// [who, public?, manage, view, counts as a visit]
const table: [Who, boolean, boolean, boolean, boolean][] = [
  ["visitor", false, false, false, false],
  ["visitor", true, false, true, true],
  ["owner", false, true, true, false],
  ["owner", true, true, true, false],
  ["otherArtist", false, false, false, false],
  ["otherArtist", true, false, true, true],
  ["client", false, false, false, false],
  ["client", true, false, true, true],
  ["admin", false, false, false, false],
  ["admin", true, false, true, true],
];

describe("portfolio policy", () => {
  it.each(table)(
    "%s, public=%s → manage %s, view %s, counts %s",
    (who, isPublic, manage, view, counts) => {
      const portfolio = isPublic ? publicPortfolio : privatePortfolio;
      expect(canManagePortfolio(actors[who], portfolio)).toBe(manage);
      expect(canViewPortfolio(actors[who], portfolio)).toBe(view);
      expect(countsAsVisit(actors[who], portfolio)).toBe(counts);
    },
  );
});
