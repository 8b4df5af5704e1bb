import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import { canHaveFeed, canImportCalendars } from "./calendars.policy";

const artist: Actor = { id: "u1", roles: ["artist"], artistProfileId: "a1" };
const client: Actor = { id: "u2", roles: ["client"], artistProfileId: null };

describe("calendar rules", () => {
  it.each([
    ["an artist", artist, "artist", true],
    ["an artist", artist, "client", true],
    ["a client", client, "artist", false],
    ["a client", client, "client", true],
    ["nobody", null, "artist", false],
    ["nobody", null, "client", false],
  ] as const)("%s may have a %s feed: %s", (_who, actor, kind, allowed) => {
    expect(canHaveFeed(actor, kind)).toBe(allowed);
  });

  it.each([
    ["an artist", artist, true],
    ["a client", client, false],
    ["nobody", null, false],
  ] as const)("%s may import calendars: %s", (_who, actor, allowed) => {
    expect(canImportCalendars(actor)).toBe(allowed);
  });
});
