import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { artistProfiles, users } from "~db/schema";
import { createArtist } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { LOCATIONS } from "./artists.constants";
import { updateArtistProfile } from "./artists.server";
import { searchArtists } from "./discovery.server";
import {
  countDiscoveryFacets,
  FACET_LIMIT,
  FACET_TTL_MS,
  genreFacets,
  getDiscoveryFacets,
  getProfileSuggestions,
} from "./discovery-facets.server";

// Discovery's filters offer the values artists actually have, with counts (see docs/product.md,
// Discovery).

describe("genreFacets", () => {
  it("counts what choosing a genre finds: every genre that contains it, in any case", () => {
    expect(
      genreFacets([
        { value: "Jazz", count: 5 },
        { value: "Smooth Jazz", count: 2 },
        { value: "jazz", count: 1 },
        { value: "Rock", count: 3 },
      ]),
    ).toEqual([
      { value: "Jazz", count: 8 },
      { value: "Rock", count: 3 },
      { value: "Smooth Jazz", count: 2 },
    ]);
  });

  it("keeps the most used values, listed alphabetically", () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({ value: `G${i}`, count: 10 - i }));
    expect(genreFacets(rows, 3).map((f) => f.value)).toEqual(["G0", "G1", "G2"]);
    expect(
      genreFacets([
        { value: "b", count: 1 },
        { value: "A", count: 1 },
      ]),
    ).toEqual([
      { value: "A", count: 1 },
      { value: "b", count: 1 },
    ]);
  });
});

type Database = Awaited<ReturnType<typeof createTestDatabase>>;

/** The artists every test here starts from: five, in three cities and three genres. */
async function addFiveArtists(db: Database["db"]) {
  const mumbai = await createArtist(
    { db },
    { name: "Asha Rao", genre: "Smooth Jazz", location: "Mumbai" },
  );
  for (let i = 0; i < 3; i++) await createArtist({ db }, { genre: "Jazz", location: "Chicago IL" });
  await createArtist({ db }, { genre: "rock", location: "Atlanta GA" });
  return mumbai;
}

// These tests only read: they share one database and app.
describe("the filters' values", () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const ctx = () => ({ db: database.db });
  let mumbai: Awaited<ReturnType<typeof createArtist>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp(database);
    mumbai = await addFiveArtists(database.db);
  });
  afterAll(async () => {
    await app?.close();
    await database?.dispose();
  });

  it("are the values artists have, with how many each filter finds", async () => {
    const facets = await getDiscoveryFacets(ctx(), null);
    expect(facets.locations).toEqual([
      { value: "Atlanta GA", count: 1 },
      { value: "Chicago IL", count: 3 },
      { value: "Mumbai", count: 1 },
    ]);
    expect(facets.genres).toEqual([
      { value: "Jazz", count: 4 },
      { value: "rock", count: 1 },
      { value: "Smooth Jazz", count: 1 },
    ]);
  });

  it("let an artist in Mumbai be found by filter", async () => {
    const found = await searchArtists(ctx(), null, {
      q: "",
      genre: "",
      location: "Mumbai",
      date: "",
      page: 1,
      clientVerified: 0,
      occasion: "",
      budget: 0,
      hours: 3,
      sort: "",
    });
    expect(found.artists.map((a) => a.id)).toEqual([mumbai.artistId]);
  });

  it("are offered by the discovery page's filters, with counts; a value in the address stays", async () => {
    const html = await (await app.request("/artist-discovery?location=Mumbai")).text();
    expect(html).toMatch(/<option value="Mumbai" selected="">Mumbai \(1\)<\/option>/);
    expect(html).toContain('<option value="Chicago IL">Chicago IL (3)</option>');
    expect(html).toContain('<option value="Jazz">Jazz (4)</option>');
    expect(html).toContain("Asha Rao");
    // The old fixed list is gone: a city nobody has is not offered.
    expect(html).not.toContain('<option value="San Francisco CA">');
    const rare = await (await app.request("/artist-discovery?location=Atlantis")).text();
    expect(rare).toMatch(/<option value="Atlantis" selected="">Atlantis<\/option>/);
  });

  it("are what profile setup suggests, then the usual ones nobody has yet", async () => {
    const suggestions = await getProfileSuggestions(ctx(), null);
    expect(suggestions.locations[0]).toBe("Chicago IL");
    expect(suggestions.locations).toContain("Mumbai");
    for (const usual of LOCATIONS) expect(suggestions.locations).toContain(usual);
    expect(suggestions.genres.filter((g) => g.toLowerCase() === "rock")).toEqual(["rock"]);

    const user = await signedInUser(app, database.db, "Newcomer");
    const html = await (
      await app.request("/profile-setup", { headers: { Cookie: user.cookie } })
    ).text();
    const datalist = /<datalist id="location-options">([\s\S]*?)<\/datalist>/.exec(html)?.[1];
    expect(datalist).toContain('<option value="Mumbai">');
  });
});

// These tests add or change artists: each has a database of its own.
describe("the filters' values, as artists change", () => {
  let database: Database;
  const ctx = () => ({ db: database.db });

  beforeEach(async () => {
    database = await createTestDatabase();
    await addFiveArtists(database.db);
  });
  afterEach(async () => {
    await database?.dispose();
  });

  it("follow this instance's own profile writes at once", async () => {
    const artist = await createArtist(ctx(), { genre: "Qawwali", location: "Lahore" });
    let facets = await getDiscoveryFacets(ctx(), null);
    expect(facets.locations).toContainEqual({ value: "Lahore", count: 1 });
    await updateArtistProfile(
      ctx(),
      { id: artist.user.id, roles: ["artist"], artistProfileId: artist.artistId },
      {
        artistName: artist.name,
        genre: "Qawwali",
        bio: "Bio",
        location: "Karachi",
        experience: "3 years",
        instruments: "Harmonium",
        hourlyRate: null,
        isAvailable: true,
      },
    );
    facets = await getDiscoveryFacets(ctx(), null);
    expect(facets.locations).toContainEqual({ value: "Karachi", count: 1 });
    expect(facets.locations.map((f) => f.value)).not.toContain("Lahore");
  });

  it("are counted once a minute otherwise: old counts are served while new ones are made", async () => {
    const start = Date.now();
    await countDiscoveryFacets(ctx()); // the database answers
    const first = await getDiscoveryFacets(ctx(), null, { now: start });
    // Another instance adds an artist: this one does not know.
    const [user] = await database.db
      .insert(users)
      .values({ name: "Elsewhere", email: `elsewhere-${start}@example.com` })
      .returning({ id: users.id });
    await database.db.insert(artistProfiles).values({
      userId: user!.id,
      slug: `elsewhere-${start}`,
      artistName: "Elsewhere",
      bio: "Bio",
      genre: "Fado",
      location: "Lisbon",
      experience: "1 year",
      instruments: "Guitar",
    });
    expect(await getDiscoveryFacets(ctx(), null, { now: start + 1000 })).toBe(first);
    // Once they are a minute old, the old counts still answer, and new ones are made behind them.
    const later = start + FACET_TTL_MS;
    expect(await getDiscoveryFacets(ctx(), null, { now: later })).toBe(first);
    await vi.waitFor(async () => {
      const facets = await getDiscoveryFacets(ctx(), null, { now: later + 1 });
      expect(facets.locations).toContainEqual({ value: "Lisbon", count: 1 });
    });
  });

  it("offer the FACET_LIMIT most used values of each filter", async () => {
    await database.db.execute(sql`
      WITH u AS (
        INSERT INTO users (name, email)
        SELECT 'Town ' || g, 'town-' || g || '@example.com' FROM generate_series(1, ${FACET_LIMIT + 5}::int) g
        RETURNING id, name
      )
      INSERT INTO artist_profiles (user_id, slug, artist_name, bio, genre, location, experience, instruments)
      SELECT id, 'town-' || replace(lower(name), ' ', '-'), name, 'Bio', 'Town ' || name, name, '1 year', 'Drums'
      FROM u`);
    const facets = await countDiscoveryFacets(ctx());
    expect(facets.locations).toHaveLength(FACET_LIMIT);
    expect(facets.locations).toContainEqual({ value: "Chicago IL", count: 3 });
    expect(facets.genres).toHaveLength(FACET_LIMIT);
    expect(facets.genres).toContainEqual({ value: "Jazz", count: 4 });
  });
});
