import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import { canEditSession, canLogSession, sharingModeOf } from "./music-sessions.policy";

const owner: Actor = { id: "u1", roles: ["artist"], artistProfileId: "a1" };
const otherArtist: Actor = { id: "u2", roles: ["artist"], artistProfileId: "b2" };
const client: Actor = { id: "u3", roles: ["client"], artistProfileId: null };
const admin: Actor = { id: "u4", roles: ["admin"], artistProfileId: null };
const visitor: Actor = null;

const session = { artistProfileId: "a1" };

describe("canEditSession: only the owner deletes, shares, uploads or removes media", () => {
  it.each([
    ["the owner", owner, true],
    ["another artist", otherArtist, false],
    ["a client", client, false],
    ["an admin without a profile", admin, false],
    ["a visitor", visitor, false],
  ] as const)("%s → %s", (_who, actor, expected) => {
    expect(canEditSession(actor, session)).toBe(expected);
  });
});

describe("canLogSession: logging a session needs an artist profile", () => {
  it.each([
    ["an artist", owner, true],
    ["another artist", otherArtist, true],
    ["a client", client, false],
    ["an admin without a profile", admin, false],
    ["a visitor", visitor, false],
  ] as const)("%s → %s", (_who, actor, expected) => {
    expect(canLogSession(actor)).toBe(expected);
  });
});

describe("sharingModeOf: a future session is for collaboration, a past one for verification", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  it.each([
    ["a day ahead", "2026-11-22T12:00:00Z", "collaboration"],
    ["a minute ahead", "2026-11-21T12:01:00Z", "collaboration"],
    ["starting now", "2026-11-21T12:00:00Z", "verification"],
    ["a day ago", "2026-11-20T12:00:00Z", "verification"],
  ] as const)("%s → %s", (_when, startTime, expected) => {
    expect(sharingModeOf({ startTime: new Date(startTime) }, now)).toBe(expected);
  });
});
