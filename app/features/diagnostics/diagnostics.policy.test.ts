import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import { canSeeDiagnostics, type DiagnosticsServer } from "./diagnostics.policy";

const actors = {
  visitor: null,
  artist: { id: "user-artist", roles: ["artist"], artistProfileId: "artist-1" },
  client: { id: "user-client", roles: ["client"], artistProfileId: null },
  admin: { id: "user-admin", roles: ["admin"], artistProfileId: null },
  artistAdmin: { id: "user-both", roles: ["artist", "admin"], artistProfileId: "artist-2" },
} satisfies Record<string, Actor>;
type Who = keyof typeof actors;

const local: DiagnosticsServer = { isPublic: false };
const published: DiagnosticsServer = { isPublic: true };

describe("canSeeDiagnostics", () => {
  it.each<[Who, DiagnosticsServer, boolean]>([
    ["visitor", local, true],
    ["artist", local, true],
    ["client", local, true],
    ["admin", local, true],
    ["visitor", published, false],
    ["artist", published, false],
    ["client", published, false],
    ["admin", published, true],
    ["artistAdmin", published, true],
  ])("%s on %o → %s", (who, server, expected) => {
    expect(canSeeDiagnostics(actors[who], server)).toBe(expected);
  });
});
