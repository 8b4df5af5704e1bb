import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import { canKeepCalendar } from "./availability.policy";

const actors = {
  visitor: null,
  artist: { id: "u-artist", roles: ["artist"], artistProfileId: "a-artist" },
  client: { id: "u-client", roles: ["client"], artistProfileId: null },
  admin: { id: "u-admin", roles: ["admin"], artistProfileId: null },
  // Roles are not what counts: having an artist profile is.
  profileWithoutRole: { id: "u-new", roles: [], artistProfileId: "a-new" },
} satisfies Record<string, Actor>;

describe("canKeepCalendar", () => {
  it.each<[keyof typeof actors, boolean]>([
    ["visitor", false],
    ["artist", true],
    ["client", false],
    ["admin", false],
    ["profileWithoutRole", true],
  ])("%s → %s", (who, expected) => {
    expect(canKeepCalendar(actors[who])).toBe(expected);
  });
});
