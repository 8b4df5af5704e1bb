import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtist, createUser } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import {
  createArtistProfile,
  getArtistProfile,
  getOwnArtistProfile,
  updateArtistProfile,
} from "./artists.server";

// Every artist profile has an IANA time zone (see docs/product.md, Artist profiles).

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

const APP_ZONE = "Europe/Berlin";

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database, { APP_TIME_ZONE: APP_ZONE });
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const profileFields = (overrides: Record<string, string> = {}) => ({
  artistName: "Zone Tester",
  genre: "Jazz",
  bio: "Plays late.",
  location: "Mumbai",
  experience: "5 years",
  instruments: "Piano",
  hourlyRate: "",
  instagram: "",
  youtube: "",
  facebook: "",
  ...overrides,
});

/** The zone the page's time zone select has selected. */
function selectedZone(html: string) {
  const select = /<select[^>]*name="timeZone"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "";
  return /<option[^>]*value="([^"]+)"[^>]*selected=""/.exec(select)?.[1] ?? null;
}

const own = (userId: string) =>
  getOwnArtistProfile({ db: database.db }, { id: userId, roles: [], artistProfileId: null });

describe("profile setup", () => {
  it("offers every zone and selects the app's zone before the browser's is known", async () => {
    const user = await signedInUser(app, database.db, "Setup");
    const html = await (
      await app.request("/profile-setup", { headers: { Cookie: user.cookie } })
    ).text();
    expect(selectedZone(html)).toBe(APP_ZONE);
    for (const zone of ["Asia/Kolkata", "America/Los_Angeles", "UTC"])
      expect(html).toContain(`<option value="${zone}"`);
  });

  it("stores the chosen zone, and profile reads return it", async () => {
    const user = await signedInUser(app, database.db, "Chooser");
    const res = await postForm(
      app,
      "/profile-setup",
      profileFields({ artistName: "Chooser Band", timeZone: "America/Los_Angeles" }),
      user.cookie,
    );
    expect(res.status).toBe(302);
    const profile = await own(user.id);
    expect(profile?.timeZone).toBe("America/Los_Angeles");
    expect((await getArtistProfile({ db: database.db }, null, profile!.slug))?.timeZone).toBe(
      "America/Los_Angeles",
    );
  });

  it("refuses a zone that is not a real IANA zone, beside the field, keeping what was typed", async () => {
    const user = await signedInUser(app, database.db, "Martian");
    const res = await postForm(
      app,
      "/profile-setup",
      profileFields({ artistName: "Olympus Trio", timeZone: "Mars/Olympus_Mons" }),
      user.cookie,
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Please choose a time zone from the list");
    expect(html).toContain('value="Olympus Trio"');
    expect(await own(user.id)).toBeNull();
  });

  it("creates the profile from a post that leaves out the optional rate and links", async () => {
    const user = await signedInUser(app, database.db, "Sparse");
    const { hourlyRate, instagram, youtube, facebook, ...required } = profileFields({
      artistName: "Sparse Duo",
    });
    const res = await postForm(app, "/profile-setup", required, user.cookie);
    expect(res.status).toBe(302);
    expect(await own(user.id)).toMatchObject({ artistName: "Sparse Duo", hourlyRate: null });
  });

  it("gives a post without the field the app's zone", async () => {
    const user = await signedInUser(app, database.db, "Plain");
    const res = await postForm(app, "/profile-setup", profileFields(), user.cookie);
    expect(res.status).toBe(302);
    expect((await own(user.id))?.timeZone).toBe(APP_ZONE);
  });
});

describe("profile edit", () => {
  it("shows the stored zone, changes it, and keeps it when a post leaves it out", async () => {
    const user = await signedInUser(app, database.db, "Editor");
    await createArtistProfile(
      { db: database.db },
      { id: user.id, roles: [], artistProfileId: null },
      { ...profileFields({ artistName: "Editor Duo" }), hourlyRate: null, timeZone: "Asia/Tokyo" },
    );
    const page = await app.request("/artist-profile/edit", { headers: { Cookie: user.cookie } });
    expect(selectedZone(await page.text())).toBe("Asia/Tokyo");

    const edit = (fields: Record<string, string>) =>
      postForm(
        app,
        "/artist-profile/edit",
        profileFields({ artistName: "Editor Duo", ...fields }),
        user.cookie,
      );
    expect((await edit({ timeZone: "America/Chicago" })).status).toBe(302);
    expect((await own(user.id))?.timeZone).toBe("America/Chicago");
    expect((await edit({})).status).toBe(302);
    expect((await own(user.id))?.timeZone).toBe("America/Chicago");
    expect((await edit({ timeZone: "Nowhere/Land" })).status).toBe(400);
    expect((await own(user.id))?.timeZone).toBe("America/Chicago");
  });
});

describe("the domain", () => {
  it("refuses to store an unreadable zone, whoever calls it", async () => {
    const user = await createUser(database.db);
    const actor = { id: user.id, roles: [], artistProfileId: null };
    const input = { ...profileFields(), hourlyRate: null };
    await expect(
      createArtistProfile({ db: database.db }, actor, { ...input, timeZone: "Not/AZone" }),
    ).rejects.toMatchObject({ code: "invalid", fieldErrors: { timeZone: expect.any(String) } });
    const artist = await createArtist({ db: database.db });
    await expect(
      updateArtistProfile(
        { db: database.db },
        { id: artist.user.id, roles: ["artist"], artistProfileId: artist.artistId },
        { ...input, isAvailable: true, timeZone: "+05:30" },
      ),
    ).rejects.toMatchObject({ code: "invalid" });
  });

  it("gives a profile made without a zone the column's default, Asia/Kolkata", async () => {
    const artist = await createArtist({ db: database.db });
    expect((await getArtistProfile({ db: database.db }, null, artist.artistId))?.timeZone).toBe(
      "Asia/Kolkata",
    );
  });
});
