import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { musicSessions, sessionMedia } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let sessionId: string;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let otherArtist: Awaited<ReturnType<typeof signedInUser>>;
let stranger: Awaited<ReturnType<typeof signedInUser>>;

let PNG: Buffer;

beforeAll(async () => {
  PNG = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#5b3fd1" } })
    .png()
    .toBuffer();
  database = await createTestDatabase();
  app = await startTestApp(database);
  owner = await signedInUser(app, database.db, "Owner");
  otherArtist = await signedInUser(app, database.db, "Rival");
  stranger = await signedInUser(app, database.db, "Stranger");
  const artistId = await addArtistProfile({ db: database.db }, owner.id);
  await addArtistProfile({ db: database.db }, otherArtist.id);
  const [session] = await database.db
    .insert(musicSessions)
    .values({ artistProfileId: artistId, title: "Set", sessionType: "jam" })
    .returning({ id: musicSessions.id });
  sessionId = session!.id;
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const upload = (cookie?: string, origin = app.env.appUrl.origin, query = "", session = sessionId) =>
  app.request(`/api/sessions/${session}/media?fileName=photo.png${query}`, {
    method: "PUT",
    body: new Uint8Array(PNG),
    headers: {
      "Content-Type": "application/octet-stream",
      Origin: origin,
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });

describe("PUT /api/sessions/:id/media", () => {
  it("refuses everyone but the session's owner, and stores nothing", async () => {
    expect((await upload()).status).toBe(401);
    expect((await upload(stranger.cookie)).status).toBe(404);
    expect((await upload(otherArtist.cookie)).status).toBe(404);
    expect((await upload(owner.cookie, "https://evil.example")).status).toBe(403);
    expect(
      await database.db.select().from(sessionMedia).where(eq(sessionMedia.sessionId, sessionId)),
    ).toEqual([]);
    // The owner, with the same request, succeeds: the refusals above were about who asked.
    const ok = await upload(owner.cookie);
    expect(ok.status).toBeLessThan(300);
    const rows = await database.db
      .select({ type: sessionMedia.mediaType })
      .from(sessionMedia)
      .where(eq(sessionMedia.sessionId, sessionId));
    expect(rows).toEqual([{ type: "photo" }]);
  });

  it("adds the file to the portfolio when the form says so ('Add to my portfolio'), and only then", async () => {
    // A session of its own: the tests run in any order.
    const [own] = await database.db
      .select({ artistId: musicSessions.artistProfileId })
      .from(musicSessions)
      .where(eq(musicSessions.id, sessionId));
    const [session] = await database.db
      .insert(musicSessions)
      .values({ artistProfileId: own!.artistId, title: "Second set", sessionType: "jam" })
      .returning({ id: musicSessions.id });
    const added = await upload(owner.cookie, undefined, "&portfolio=1", session!.id);
    const kept = await upload(owner.cookie, undefined, "&portfolio=0", session!.id);
    const ids = [
      ((await added.json()) as { media: { id: string } }).media.id,
      ((await kept.json()) as { media: { id: string } }).media.id,
    ];
    const featured = async (id: string) => {
      const [row] = await database.db
        .select({
          featured: sessionMedia.isPortfolioFeatured,
          order: sessionMedia.portfolioSortOrder,
        })
        .from(sessionMedia)
        .where(eq(sessionMedia.id, id));
      return row;
    };
    expect((await featured(ids[0]!))?.featured).toBe(true);
    expect((await featured(ids[0]!))?.order).toBeGreaterThan(0);
    expect(await featured(ids[1]!)).toEqual({ featured: false, order: 0 });
  });
});
