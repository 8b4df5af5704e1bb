import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import {
  canAnswerLineup,
  canChangeSessionSchedule,
  canEditSession,
  canEditSessionDetails,
  canLogSession,
  isSelfLogged,
  sharingModeOf,
} from "./music-sessions.policy";

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

describe("canEditSessionDetails: the owner edits title, description, tags… at any time", () => {
  const verified = { artistProfileId: "a1", isVerified: true };
  it.each([
    ["the owner, self-logged", owner, session, true],
    ["the owner, verified", owner, verified, true],
    ["another artist", otherArtist, session, false],
    ["a client", client, session, false],
    ["an admin without a profile", admin, session, false],
    ["a visitor", visitor, session, false],
  ] as const)("%s → %s", (_who, actor, thing, expected) => {
    expect(canEditSessionDetails(actor, thing)).toBe(expected);
  });
});

describe("canChangeSessionSchedule: date, time, duration, venue and type lock once anyone verified", () => {
  const selfLogged = {
    artistProfileId: "a1",
    isVerified: false,
    peerVerifications: 0,
    verifiedParticipants: 0,
  };
  const peerVerifiedOnce = { ...selfLogged, peerVerifications: 1 };
  const joinedByCollaborator = { ...selfLogged, verifiedParticipants: 1 };
  const verified = { ...selfLogged, isVerified: true };
  it.each([
    ["the owner, self-logged", owner, selfLogged, true],
    ["the owner, one peer verification below the threshold", owner, peerVerifiedOnce, false],
    ["the owner, a collaborator joined", owner, joinedByCollaborator, false],
    ["the owner, verified (peers or a client booking)", owner, verified, false],
    ["another artist, self-logged", otherArtist, selfLogged, false],
    ["a client, self-logged", client, selfLogged, false],
    ["an admin without a profile, self-logged", admin, selfLogged, false],
    ["a visitor, self-logged", visitor, selfLogged, false],
  ] as const)("%s → %s", (_who, actor, thing, expected) => {
    expect(canChangeSessionSchedule(actor, thing)).toBe(expected);
  });
  it("isSelfLogged: nobody but the artist has vouched for it", () => {
    expect(isSelfLogged(selfLogged)).toBe(true);
    expect(isSelfLogged(peerVerifiedOnce)).toBe(false);
    expect(isSelfLogged(joinedByCollaborator)).toBe(false);
    expect(isSelfLogged(verified)).toBe(false);
  });
});

describe("canAnswerLineup: a joined collaborator, after the end, once", () => {
  const now = new Date("2026-11-15T20:00:00Z");
  // 90 minutes long: ended a minute ago, ends in a minute, ends right now.
  const ended = new Date("2026-11-15T18:29:00Z");
  const playing = new Date("2026-11-15T18:31:00Z");
  const endsNow = new Date("2026-11-15T18:30:00Z");
  const planned = new Date("2026-11-15T21:00:00Z");
  const lineup = (over: Partial<Parameters<typeof canAnswerLineup>[1]> = {}) => ({
    startTime: ended,
    durationMinutes: 90,
    joined: true,
    answer: null,
    ...over,
  });
  it.each([
    ["a joined collaborator a minute after the end", otherArtist, lineup(), true],
    ["at the very end", otherArtist, lineup({ startTime: endsNow }), true],
    ["a minute before the end", otherArtist, lineup({ startTime: playing }), false],
    ["at the very start", otherArtist, lineup({ startTime: now }), false],
    ["before the start", otherArtist, lineup({ startTime: planned }), false],
    ["after confirming", otherArtist, lineup({ answer: "confirmed" }), false],
    ["after declining", otherArtist, lineup({ answer: "declined" }), false],
    ["an artist who did not join", otherArtist, lineup({ joined: false }), false],
    ["a client", client, lineup(), false],
    ["a visitor", visitor, lineup(), false],
  ] as const)("%s → %s", (_who, actor, state, expected) => {
    expect(canAnswerLineup(actor, state, now)).toBe(expected);
  });
});
