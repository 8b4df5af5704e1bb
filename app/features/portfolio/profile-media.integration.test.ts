import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artistProfiles, sessionMedia } from "~db/schema";
import { artistActor, createArtist, createSession } from "~seed/factories";
import { discoveryQuery } from "../../../tests/support/query-plans";
import { createTestDatabase } from "../../../tests/support/test-database";
import { loadDiscovery } from "../artists/discovery.server";
import { loadPortfolioManager } from "./portfolio.server";
import { setProfileMedia } from "./profile-media.server";

// Media up front (issue 43): the cover photo and the featured clip an artist chooses.

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

describe("cover photo and featured clip", () => {
  let database: TestDatabase;
  let artist: Awaited<ReturnType<typeof createArtist>>;
  let other: Awaited<ReturnType<typeof createArtist>>;
  const media: Record<string, string> = {};

  async function addMedia(sessionId: string, mediaType: "photo" | "audio" | "video", name: string) {
    const [row] = await database.db
      .insert(sessionMedia)
      .values({
        sessionId,
        mediaType,
        filePath: `media/${name}`,
        previewPath: mediaType === "photo" ? `media/preview-${name}` : null,
        fileName: name,
        fileSize: 1000,
        mimeType:
          mediaType === "photo" ? "image/jpeg" : mediaType === "audio" ? "audio/mpeg" : "video/mp4",
        description: mediaType === "audio" ? "Raga Yaman, live" : null,
      })
      .returning({ id: sessionMedia.id });
    return row!.id;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const ctx = { db: database.db };
    artist = await createArtist(ctx, { name: "Rhea Kapoor", location: "Mumbai" });
    other = await createArtist(ctx, { name: "Someone Else", location: "Mumbai" });
    const own = await createSession(database.db, artist.artistId, { title: "Sangeet at Juhu" });
    const theirs = await createSession(database.db, other.artistId);
    media.photo = await addMedia(own, "photo", "stage.jpg");
    media.audio = await addMedia(own, "audio", "yaman.mp3");
    media.video = await addMedia(own, "video", "set.mp4");
    media.otherPhoto = await addMedia(theirs, "photo", "theirs.jpg");
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** Both chosen, through the domain function: each test starts from there. */
  async function chooseBoth() {
    const ctx = { db: database.db };
    const actor = artistActor(artist);
    await setProfileMedia(ctx, actor, { slot: "cover", mediaId: media.photo!, chosen: true });
    await setProfileMedia(ctx, actor, { slot: "clip", mediaId: media.audio!, chosen: true });
  }

  const chosen = async () => {
    const [row] = await database.db
      .select({ cover: artistProfiles.coverMediaId, clip: artistProfiles.featuredClipId })
      .from(artistProfiles)
      .where(eq(artistProfiles.id, artist.artistId));
    return row;
  };

  it("takes a photo of the artist's own as the cover and an audio file as the clip", async () => {
    const ctx = { db: database.db };
    await setProfileMedia(ctx, artistActor(artist), {
      slot: "cover",
      mediaId: media.photo!,
      chosen: true,
    });
    await setProfileMedia(ctx, artistActor(artist), {
      slot: "clip",
      mediaId: media.audio!,
      chosen: true,
    });
    expect(await chosen()).toEqual({ cover: media.photo, clip: media.audio });

    // The discovery card and the manager see them.
    const page = await loadDiscovery(ctx, null, discoveryQuery({ location: "Mumbai" }));
    expect(page.media[artist.artistId]).toEqual({
      coverPath: "media/preview-stage.jpg",
      clipPath: "media/yaman.mp3",
      clipTitle: "Raga Yaman, live",
    });
    expect(page.media[other.artistId]).toBeUndefined();
    const manager = await loadPortfolioManager(
      { db: database.db, env: { appUrl: new URL("http://127.0.0.1") } } as never,
      artistActor(artist),
    );
    const flags = Object.fromEntries(
      manager!.media.map((m) => [m.fileName, [m.isCover, m.isClip]]),
    );
    expect(flags).toMatchObject({
      "stage.jpg": [true, false],
      "yaman.mp3": [false, true],
      "set.mp4": [false, false],
    });
    expect(flags["doomed.mp3"] ?? [false, false]).toEqual([false, false]);
  });

  it("refuses another artist's media, a video as the cover and a photo as the clip, changing nothing", async () => {
    const ctx = { db: database.db };
    await chooseBoth();
    const before = await chosen();
    expect(before).toEqual({ cover: media.photo, clip: media.audio });
    for (const [slot, mediaId] of [
      ["cover", media.otherPhoto],
      ["cover", media.video],
      ["clip", media.photo],
      ["clip", "not-a-uuid"],
    ] as const) {
      await expect(
        setProfileMedia(ctx, artistActor(artist), { slot, mediaId: mediaId!, chosen: true }),
      ).rejects.toMatchObject({ code: "not_found" });
    }
    // Someone without a profile.
    await expect(
      setProfileMedia(ctx, null, { slot: "cover", mediaId: media.photo!, chosen: true }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await chosen()).toEqual(before);
    // The database refuses it too, whoever writes.
    await expect(
      database.db.execute(
        sql`UPDATE artist_profiles SET cover_media_id = ${media.otherPhoto} WHERE id = ${artist.artistId}`,
      ),
    ).rejects.toThrow();
    expect(await chosen()).toEqual(before);
  });

  it("stops showing one when asked, and when its file is deleted", async () => {
    const ctx = { db: database.db };
    await chooseBoth();
    await setProfileMedia(ctx, artistActor(artist), {
      slot: "cover",
      mediaId: media.photo!,
      chosen: false,
    });
    expect(await chosen()).toEqual({ cover: null, clip: media.audio });
    // A clip of its own to delete (the tests run in any order).
    const [own] = await database.db
      .select({ sessionId: sessionMedia.sessionId })
      .from(sessionMedia)
      .where(eq(sessionMedia.id, media.audio!));
    const doomed = await addMedia(own!.sessionId, "audio", "doomed.mp3");
    await setProfileMedia(ctx, artistActor(artist), {
      slot: "clip",
      mediaId: doomed,
      chosen: true,
    });
    await database.db.delete(sessionMedia).where(eq(sessionMedia.id, doomed));
    expect(await chosen()).toEqual({ cover: null, clip: null });
  });
});
