import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import { instagramConnections, instagramFollows, sessionParticipants, users } from "~db/schema";
import { createTestDatabase } from "../../../tests/support/test-database";
import { createArtist, insertSession } from "../sharing/test-factories";
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
  const [user] = await handle.db
    .insert(users)
    .values({
      name: "Viewer",
      email: `viewer-${crypto.randomUUID()}@example.com`,
      emailVerified: true,
    })
    .returning({ id: users.id });
  const [connection] = await handle.db
    .insert(instagramConnections)
    .values({ userId: user!.id, isActive, username: "viewer" })
    .returning({ id: instagramConnections.id });
  if (artistIds.length > 0) {
    await handle.db
      .insert(instagramFollows)
      .values(
        artistIds.map((artistProfileId) => ({ connectionId: connection!.id, artistProfileId })),
      );
  }
  return user!.id;
}

async function participate(
  sessionOwner: string,
  participant: string,
  participationType: "collaborator" | "verifier",
  verificationStatus: "verified" | "pending",
) {
  const sessionId = await insertSession(handle.db, sessionOwner);
  await handle.db
    .insert(sessionParticipants)
    .values({ sessionId, artistProfileId: participant, participationType, verificationStatus });
}

describe("collaboration insight", () => {
  it("is hidden for signed-out viewers and viewers without a connection", async () => {
    const target = await createArtist(handle.db, "Target");
    expect(await getCollaborationInsight(ctx(), null, target.artistProfileId)).toEqual({
      hasInstagramConnection: false,
      collaborationCount: 0,
      shouldShowIndicator: false,
    });
    const plain = await createArtist(handle.db, "Plain");
    expect(
      await getCollaborationInsight(ctx(), viewerOf(plain.userId), target.artistProfileId),
    ).toMatchObject({
      hasInstagramConnection: false,
      shouldShowIndicator: false,
    });
  });

  it("counts followed artists who played with the target, in either direction, verified only", async () => {
    const target = await createArtist(handle.db, "Target");
    const a = await createArtist(handle.db, "A"); // collaborator in target's session
    const b = await createArtist(handle.db, "B"); // target verified b's session
    const c = await createArtist(handle.db, "C"); // only a pending verifier: not counted
    const d = await createArtist(handle.db, "D"); // played with target but not followed
    const e = await createArtist(handle.db, "E"); // followed, never played with target
    await participate(target.artistProfileId, a.artistProfileId, "collaborator", "verified");
    await participate(target.artistProfileId, a.artistProfileId, "collaborator", "verified");
    await participate(b.artistProfileId, target.artistProfileId, "verifier", "verified");
    await participate(target.artistProfileId, c.artistProfileId, "verifier", "pending");
    await participate(target.artistProfileId, d.artistProfileId, "collaborator", "verified");
    const viewer = await viewerFollowing([a, b, c, e, target].map((x) => x.artistProfileId));
    expect(await getCollaborationInsight(ctx(), viewerOf(viewer), target.artistProfileId)).toEqual({
      hasInstagramConnection: true,
      collaborationCount: 2,
      shouldShowIndicator: true,
    });
  });

  it("shows nothing with an inactive connection or no collaborations", async () => {
    const target = await createArtist(handle.db, "Target");
    const a = await createArtist(handle.db, "A");
    await participate(target.artistProfileId, a.artistProfileId, "collaborator", "verified");
    const inactive = await viewerFollowing([a.artistProfileId], false);
    expect(
      await getCollaborationInsight(ctx(), viewerOf(inactive), target.artistProfileId),
    ).toMatchObject({
      hasInstagramConnection: false,
      shouldShowIndicator: false,
    });
    const lonely = await viewerFollowing([]);
    expect(await getCollaborationInsight(ctx(), viewerOf(lonely), target.artistProfileId)).toEqual({
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
