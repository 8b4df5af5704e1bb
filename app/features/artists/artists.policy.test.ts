import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import {
  type ArtistRef,
  canBookArtist,
  canCreateArtistProfile,
  canEditArtistProfile,
} from "./artists.policy";

const artist: ArtistRef = { id: "artist-1", userId: "user-owner" };
const orphan: ArtistRef = { id: "artist-2", userId: null };

const actors = {
  visitor: null,
  owner: { id: "user-owner", roles: ["artist"], artistProfileId: "artist-1" },
  otherArtist: { id: "user-other", roles: ["artist"], artistProfileId: "artist-9" },
  client: { id: "user-client", roles: ["client"], artistProfileId: null },
  admin: { id: "user-admin", roles: ["admin"], artistProfileId: null },
} satisfies Record<string, Actor>;
type Who = keyof typeof actors;

describe("canEditArtistProfile", () => {
  it.each<[Who, ArtistRef, boolean]>([
    ["visitor", artist, false],
    ["owner", artist, true],
    ["otherArtist", artist, false],
    ["client", artist, false],
    ["admin", artist, false],
    ["owner", orphan, false],
    ["visitor", orphan, false],
  ])("%s on %o → %s", (who, thing, expected) => {
    expect(canEditArtistProfile(actors[who], thing)).toBe(expected);
  });
});

describe("canBookArtist", () => {
  it.each<[Who, ArtistRef, boolean]>([
    ["visitor", artist, false],
    ["owner", artist, false],
    ["otherArtist", artist, true],
    ["client", artist, true],
    ["admin", artist, true],
    ["owner", orphan, true],
    ["visitor", orphan, false],
  ])("%s on %o → %s", (who, thing, expected) => {
    expect(canBookArtist(actors[who], thing)).toBe(expected);
  });
});

describe("canCreateArtistProfile", () => {
  it.each<[Who, boolean]>([
    ["visitor", false],
    ["owner", false],
    ["otherArtist", false],
    ["client", true],
    ["admin", true],
  ])("%s → %s", (who, expected) => {
    expect(canCreateArtistProfile(actors[who])).toBe(expected);
  });
});
