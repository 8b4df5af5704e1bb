import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import { canJoinSession, canShareSession } from "./sharing.policy";

const owner: Actor = { id: "u1", roles: ["artist"], artistProfileId: "a1" };
const otherArtist: Actor = { id: "u2", roles: ["artist"], artistProfileId: "b2" };
const client: Actor = { id: "u3", roles: ["client"], artistProfileId: null };
const admin: Actor = { id: "u4", roles: ["admin"], artistProfileId: null };
const visitor: Actor = null;

const session = { artistProfileId: "a1" };

describe("canShareSession: only the owner makes sharing links", () => {
  it.each([
    ["the owner", owner, true],
    ["another artist", otherArtist, false],
    ["a client", client, false],
    ["an admin without a profile", admin, false],
    ["a visitor", visitor, false],
  ] as const)("%s → %s", (_who, actor, expected) => {
    expect(canShareSession(actor, session)).toBe(expected);
  });
});

describe("canJoinSession: another artist joins or verifies, never the owner", () => {
  it.each([
    ["the owner", owner, false],
    ["another artist", otherArtist, true],
    ["a client without a profile", client, false],
    ["an admin without a profile", admin, false],
    ["a visitor", visitor, false],
  ] as const)("%s → %s", (_who, actor, expected) => {
    expect(canJoinSession(actor, session)).toBe(expected);
  });
});
