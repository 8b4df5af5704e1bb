import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { artistProfiles, portfolioAnalytics, portfolios, sessionMedia } from "~db/schema";
import { addArtistProfile, createSession } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { NOT_THE_ARTIST } from "./portfolio.schema";
import { getPortfolioAnalytics, loadPortfolioManager } from "./portfolio.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let owner: Person;
let rival: Person;
let fan: Person;
let portfolioId: string;
let portfolioTitle: string;
let mediaId: string;

const makeArtist = (who: Person) => addArtistProfile({ db: database.db }, who.id);
/** The portfolio manager's two forms, as `cookie`'s holder (signed out without one). */
const featureMedia = (cookie?: string) =>
  postForm(app, "/portfolio-manager", { featured: "true", mediaIds: mediaId }, cookie);
const saveSettings = (fields: Record<string, string>, cookie?: string) =>
  postForm(app, "/portfolio-manager", { intent: "settings", ...fields }, cookie);

async function portfolioRow() {
  const [row] = await database.db
    .select({
      title: portfolios.title,
      isPublic: portfolios.isPublic,
      viewCount: portfolios.viewCount,
    })
    .from(portfolios)
    .where(eq(portfolios.id, portfolioId));
  return row!;
}
async function featured() {
  const [row] = await database.db
    .select({ f: sessionMedia.isPortfolioFeatured })
    .from(sessionMedia)
    .where(eq(sessionMedia.id, mediaId));
  return row!.f;
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  owner = await signedInUser(app, database.db, "Owner");
  rival = await signedInUser(app, database.db, "Rival");
  fan = await signedInUser(app, database.db, "Fan");
  const ownerArtist = await makeArtist(owner);
  await makeArtist(rival);
  const sessionId = await createSession(database.db, ownerArtist);
  const [media] = await database.db
    .insert(sessionMedia)
    .values({
      sessionId,
      mediaType: "audio",
      filePath: `media/${sessionId}/a.wav`,
      fileName: "a.wav",
      fileSize: 1,
      mimeType: "audio/wav",
    })
    .returning({ id: sessionMedia.id });
  mediaId = media!.id;
  const manager = await loadPortfolioManager(
    { db: database.db, env: app.env },
    { id: owner.id, roles: ["artist"], artistProfileId: ownerArtist },
  );
  if (!manager?.portfolio.id) throw new Error("the owner has no portfolio");
  portfolioId = manager.portfolio.id;
  portfolioTitle = manager!.portfolio.title;
});
// Every test starts from the same state, whatever ran before it: a private portfolio under its
// first title, nothing featured, no views and no recorded events. The settings go through the
// owner's own form: a write also makes the app forget the pages it keeps for a second.
beforeEach(async () => {
  const reset = await saveSettings({ title: portfolioTitle, description: "" }, owner.cookie);
  expect(reset.status).toBe(200);
  await database.db.update(portfolios).set({ viewCount: 0 }).where(eq(portfolios.id, portfolioId));
  await database.db
    .update(sessionMedia)
    .set({ isPortfolioFeatured: false })
    .where(eq(sessionMedia.id, mediaId));
  await database.db
    .delete(portfolioAnalytics)
    .where(eq(portfolioAnalytics.portfolioId, portfolioId));
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

/** The clip the owner's profile features (the media item is audio). */
async function featuredClip() {
  const [row] = await database.db
    .select({ clip: artistProfiles.featuredClipId })
    .from(artistProfiles)
    .where(eq(artistProfiles.userId, owner.id));
  return row!.clip;
}

describe("portfolio manager permissions", () => {
  it("lets only the owner choose the featured clip; hostile bodies change nothing", async () => {
    const choose = (fields: Record<string, string>, cookie?: string) =>
      postForm(app, "/portfolio-manager", fields, cookie);
    const clip = { intent: "clip", mediaId, chosen: "true" };
    expect((await choose(clip)).status).toBe(302);
    for (const who of [rival, fan]) expect((await choose(clip, who.cookie)).status).toBe(404);
    for (const bad of [
      { ...clip, mediaId: "not-a-uuid" },
      { ...clip, chosen: "maybe" },
      { ...clip, intent: "cover" }, // the media item is audio, not a photo
    ]) {
      const res = await choose(bad, owner.cookie);
      expect(res.status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(bad)).toBeLessThan(500);
    }
    expect(await featuredClip()).toBeNull();
    expect((await choose(clip, owner.cookie)).status).toBe(200);
    expect(await featuredClip()).toBe(mediaId);
    expect((await choose({ ...clip, chosen: "false" }, owner.cookie)).status).toBe(200);
    expect(await featuredClip()).toBeNull();
  });

  it("sends a signed-out visitor to sign in and changes nothing", async () => {
    const res = await featureMedia();
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    expect(await featured()).toBe(false);
  });

  it("tells a signed-in non-artist that management is only for the artist", async () => {
    const res = await app.request("/portfolio-manager", { headers: { Cookie: fan.cookie } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(NOT_THE_ARTIST);
  });

  it("refuses another artist's or a non-artist's feature and settings changes", async () => {
    for (const who of [rival, fan]) {
      const res = await featureMedia(who.cookie);
      expect(res.status).toBe(404);
    }
    const res = await saveSettings(
      { title: "Hijacked", description: "", isPublic: "on" },
      fan.cookie,
    );
    expect(res.status).toBe(404);
    expect(await featured()).toBe(false);
    expect(await portfolioRow()).toMatchObject({ isPublic: false });
    expect((await portfolioRow()).title).not.toBe("Hijacked");
  });

  it("validates settings and lets the owner feature and save", async () => {
    const bad = await saveSettings({ title: "  ", description: "" }, owner.cookie);
    expect(bad.status).toBe(400);
    const ok = await featureMedia(owner.cookie);
    expect(ok.status).toBe(200);
    expect(await featured()).toBe(true);
  });
});

describe("public portfolio page", () => {
  it("is 404 while private for everyone but the owner", async () => {
    expect((await app.request(`/portfolio/${portfolioId}`)).status).toBe(404);
    expect(
      (await app.request(`/portfolio/${portfolioId}`, { headers: { Cookie: rival.cookie } }))
        .status,
    ).toBe(404);
    const mine = await app.request(`/portfolio/${portfolioId}`, {
      headers: { Cookie: owner.cookie },
    });
    expect(mine.status).toBe(200);
    expect(await mine.text()).toContain("only you can see it");
    // Events for a private portfolio are not counted either.
    await postForm(app, `/portfolio/${portfolioId}/report`, { intent: "view" });
    expect((await portfolioRow()).viewCount).toBe(0);
  });

  it("once public, shows featured media with players and meta tags; counts visitors, not the owner", async () => {
    const feature = await featureMedia(owner.cookie);
    expect(feature.status).toBe(200);
    await saveSettings(
      { title: "Open Book", description: "Live takes", isPublic: "on" },
      owner.cookie,
    );
    const res = await app.request(`/portfolio/${portfolioId}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta property="og:title" content="Open Book | GigLedger"');
    // The recording is fetched only when played: nothing beyond the page on a cold load.
    expect(html).toMatch(/<audio[^>]*preload="none"/);
    // Rendering the page records nothing: the browser reports the view after hydration.
    expect((await portfolioRow()).viewCount).toBe(0);

    // The page's browser code reports to /portfolio/{id}/report; the owner's reports do not count.
    const report = `/portfolio/${portfolioId}/report`;
    await postForm(app, report, { intent: "view" }, owner.cookie);
    await postForm(app, report, { intent: "play", mediaId }, owner.cookie);
    expect((await portfolioRow()).viewCount).toBe(0);

    const refusedReports: Record<string, string>[] = [
      { intent: "rate" },
      { intent: "play", mediaId: "x" },
      { intent: "vi\u0000ew" },
    ];
    for (const bad of refusedReports) {
      const refused = await postForm(app, report, bad, fan.cookie);
      expect(refused.status).toBe(400);
    }
    expect((await portfolioRow()).viewCount).toBe(0);
    const counted = await postForm(app, report, { intent: "view" }, fan.cookie);
    expect(counted.status).toBe(200);
    await postForm(app, report, { intent: "play", mediaId }, fan.cookie);
    await postForm(app, report, { intent: "view" });
    expect((await portfolioRow()).viewCount).toBe(2);
    expect(await getPortfolioAnalytics(database.db, portfolioId)).toMatchObject({
      views: 2,
      plays: 1,
    });
  });
});
