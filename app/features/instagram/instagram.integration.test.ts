import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import { instagramConnections, instagramFollows, sessionParticipants } from "~db/schema";
import { createArtist, createSession, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import {
  getCollaborationInsight,
  instagramRequiredUrls,
  shouldShowCollaborationIndicator,
} from "./instagram.server";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.dispose();
});

const ctx = () => ({ db: handle.db });
/** A signed-in viewer (the Actor a route passes) for a user id. */
const viewerOf = (id: string): Actor => ({ id, roles: [], artistProfileId: null });

async function viewerFollowing(artistIds: string[], isActive = true) {
  const user = await createUser(handle.db, { firstName: "Viewer" });
  const [connection] = await handle.db
    .insert(instagramConnections)
    .values({ userId: user.id, isActive, username: "viewer" })
    .returning({ id: instagramConnections.id });
  if (artistIds.length > 0) {
    await handle.db
      .insert(instagramFollows)
      .values(
        artistIds.map((artistProfileId) => ({ connectionId: connection!.id, artistProfileId })),
      );
  }
  return user.id;
}

async function participate(
  sessionOwner: string,
  participant: string,
  participationType: "collaborator" | "verifier",
  verificationStatus: "verified" | "pending",
) {
  const sessionId = await createSession(handle.db, sessionOwner);
  await handle.db
    .insert(sessionParticipants)
    .values({ sessionId, artistProfileId: participant, participationType, verificationStatus });
}

describe("collaboration insight", () => {
  it("is hidden for signed-out viewers and viewers without a connection", async () => {
    const target = await createArtist(ctx(), { name: "Target" });
    expect(await getCollaborationInsight(ctx(), null, target.artistId)).toEqual({
      hasInstagramConnection: false,
      collaborationCount: 0,
      shouldShowIndicator: false,
    });
    const plain = await createArtist(ctx(), { name: "Plain" });
    expect(
      await getCollaborationInsight(ctx(), viewerOf(plain.user.id), target.artistId),
    ).toMatchObject({
      hasInstagramConnection: false,
      shouldShowIndicator: false,
    });
  });

  it("counts followed artists who played with the target, in either direction, verified only", async () => {
    const target = await createArtist(ctx(), { name: "Target" });
    const a = await createArtist(ctx(), { name: "A" }); // collaborator in target's session
    const b = await createArtist(ctx(), { name: "B" }); // target verified b's session
    const c = await createArtist(ctx(), { name: "C" }); // only a pending verifier: not counted
    const d = await createArtist(ctx(), { name: "D" }); // played with target but not followed
    const e = await createArtist(ctx(), { name: "E" }); // followed, never played with target
    await participate(target.artistId, a.artistId, "collaborator", "verified");
    await participate(target.artistId, a.artistId, "collaborator", "verified");
    await participate(b.artistId, target.artistId, "verifier", "verified");
    await participate(target.artistId, c.artistId, "verifier", "pending");
    await participate(target.artistId, d.artistId, "collaborator", "verified");
    const viewer = await viewerFollowing([a, b, c, e, target].map((x) => x.artistId));
    expect(await getCollaborationInsight(ctx(), viewerOf(viewer), target.artistId)).toEqual({
      hasInstagramConnection: true,
      collaborationCount: 2,
      shouldShowIndicator: true,
    });
  });

  it("shows nothing with an inactive connection or no collaborations", async () => {
    const target = await createArtist(ctx(), { name: "Target" });
    const a = await createArtist(ctx(), { name: "A" });
    await participate(target.artistId, a.artistId, "collaborator", "verified");
    const inactive = await viewerFollowing([a.artistId], false);
    expect(await getCollaborationInsight(ctx(), viewerOf(inactive), target.artistId)).toMatchObject(
      {
        hasInstagramConnection: false,
        shouldShowIndicator: false,
      },
    );
    const lonely = await viewerFollowing([]);
    expect(await getCollaborationInsight(ctx(), viewerOf(lonely), target.artistId)).toEqual({
      hasInstagramConnection: true,
      collaborationCount: 0,
      shouldShowIndicator: false,
    });
  });

  it("shows only to a signed-in viewer with a connection and at least one collaboration", () => {
    expect(shouldShowCollaborationIndicator(true, true, 1)).toBe(true);
    expect(shouldShowCollaborationIndicator(false, true, 1)).toBe(false);
    expect(shouldShowCollaborationIndicator(true, false, 1)).toBe(false);
    expect(shouldShowCollaborationIndicator(true, true, 0)).toBe(false);
  });
});

describe("required URLs", () => {
  it("are built from APP_URL", () => {
    expect(instagramRequiredUrls(new URL("https://gigs.example.com"))).toEqual({
      redirectUri: "https://gigs.example.com/functions/instagram-oauth?action=callback",
      privacyPolicyUrl: "https://gigs.example.com/privacy-policy",
      dataDeletionUrl: "https://gigs.example.com/data-deletion",
    });
  });
});
