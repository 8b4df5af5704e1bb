import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artistProfiles, availability, bookings } from "~db/schema";
import { createArtist, createSession, createUser } from "~seed/factories";
import { discoveryQuery } from "../../../tests/support/query-plans";
import { createTestDatabase } from "../../../tests/support/test-database";
import type { DiscoveryQuery } from "./artists.schema";
import { loadDiscovery, searchArtists } from "./discovery.server";
import { countDiscoveryFacets } from "./discovery-facets.server";
import { matchText } from "./match-text";

// Discovery for the questions a client has (issue 43): words that find bios, session titles and
// reviews, ranked and explained; occasions; a budget; sorting by price.

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

describe("discovery by words, occasion, budget and price", () => {
  let database: TestDatabase;
  const ids: Record<string, string> = {};
  const search = (fields: Partial<DiscoveryQuery>) =>
    searchArtists({ db: database.db }, null, discoveryQuery(fields));
  const names = async (fields: Partial<DiscoveryQuery>) =>
    (await search(fields)).artists.map((a) => a.artistName);

  let gigs = 0;
  async function review(artistId: string, text: string) {
    gigs += 1;
    const client = await createUser(database.db, { firstName: "Client" });
    const [row] = await database.db
      .insert(bookings)
      .values({
        artistProfileId: artistId,
        clientUserId: client.id,
        eventDate: `2026-01-${String(10 + gigs).padStart(2, "0")}`,
        durationHours: 3,
        venue: "Taj Lands End",
        eventType: "Wedding",
        status: "completed",
        totalAmount: 9000,
        rating: 5,
        ratingGiven: true,
      })
      .returning({ id: bookings.id });
    // The review comes later, as the rating form writes it: the document follows.
    await database.db.update(bookings).set({ review: text }).where(eq(bookings.id, row!.id));
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const ctx = { db: database.db };
    const artist = async (
      key: string,
      fields: Parameters<typeof createArtist>[1] & { rating?: number },
    ) => {
      const { rating, ...rest } = fields;
      const made = await createArtist(ctx, { experience: "5 years", ...rest });
      if (rating !== undefined)
        await database.db
          .update(artistProfiles)
          .set({ rating })
          .where(eq(artistProfiles.id, made.artistId));
      ids[key] = made.artistId;
      return made.artistId;
    };
    // The sitarist whose bio says nothing of weddings, but whose history and reviews do.
    const rhea = await artist("rhea", {
      name: "Rhea Kapoor",
      genre: "Classical",
      location: "Mumbai",
      instruments: "Sitar, Tanpura",
      bio: "Hindustani classical recitals and baithaks.",
      hourlyRate: 2500,
      occasions: ["Wedding", "Live Show"],
      rating: 4.2,
    });
    await createSession(database.db, rhea, { title: "Wedding sangeet at Juhu" });
    await createSession(database.db, rhea, { title: "Mehendi evening, wedding of the Iyers" });
    await review(rhea, "She made our wedding unforgettable.");
    await review(rhea, "Perfect for the wedding ceremony.");
    await review(rhea, "The wedding guests loved the sitar.");
    await review(rhea, "Lovely recital.");
    // A sitarist whose bio mentions weddings once.
    await artist("kabir", {
      name: "Kabir Sen",
      genre: "Fusion",
      location: "Mumbai",
      instruments: "Sitar",
      bio: "Sitar for weddings and lounges.",
      hourlyRate: 6000,
      occasions: ["Wedding"],
      rating: 4.9,
    });
    // "Wedding" in the name: best on that word, but no sitar.
    await artist("band", {
      name: "Wedding Brass Band",
      genre: "Brass",
      location: "Mumbai",
      instruments: "Trumpet, Drums",
      bio: "Baraat processions.",
      hourlyRate: 4000,
      occasions: ["Wedding", "Private Event"],
      rating: 3.5,
    });
    // A sitarist who quotes each booking and plays no weddings.
    await artist("quotes", {
      name: "Anoushka Das",
      genre: "Classical",
      location: "Mumbai",
      instruments: "Sitar",
      bio: "Concert stages.",
      hourlyRate: null,
      occasions: ["Live Show", "Recording Session"],
      rating: 4.8,
    });
    await artist("delhi", {
      name: "Zoya Ali",
      genre: "Classical",
      location: "New Delhi",
      instruments: "Sitar",
      bio: "Weddings in Delhi.",
      hourlyRate: 1500,
      occasions: ["Wedding"],
      rating: 5,
    });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("finds artists by words in bios, session titles and reviews, stemmed", async () => {
    // Only the band has "wedding" in its name; the others are found through what they wrote,
    // played and were told.
    expect((await names({ q: "weddings", location: "Mumbai" })).sort()).toEqual(
      ["Kabir Sen", "Rhea Kapoor", "Wedding Brass Band"].sort(),
    );
    expect(await names({ q: "wedding sitar", location: "Mumbai" })).toEqual(
      expect.arrayContaining(["Rhea Kapoor", "Kabir Sen"]),
    );
    expect(await names({ q: "wedding sitar", location: "Mumbai" })).not.toContain(
      "Wedding Brass Band",
    );
    // A part of a name still finds it (the trigram match), as before.
    expect(await names({ q: "kapo" })).toEqual(["Rhea Kapoor"]);
  });

  it("ranks by where the words are, not only by rating", async () => {
    // "wedding": the band has it in its name (weighted most), though it is rated lowest.
    const found = await names({ q: "wedding", location: "Mumbai" });
    expect(found[0]).toBe("Wedding Brass Band");
  });

  it("says where the words were found", async () => {
    const page = await loadDiscovery(
      { db: database.db },
      null,
      discoveryQuery({ q: "weddings", location: "Mumbai" }),
    );
    const rhea = page.matches[ids.rhea!];
    expect(rhea).toEqual({ profile: false, occasions: true, bio: false, sessions: 2, reviews: 3 });
    expect(matchText("weddings", rhea)).toBe(
      "Mentions “weddings” in the occasions played, 2 session titles and 3 reviews",
    );
    expect(matchText("weddings", page.matches[ids.kabir!])).toBe(
      "Mentions “weddings” in the occasions played and the bio",
    );
    // Without words there is nothing to explain.
    const plain = await loadDiscovery({ db: database.db }, null, discoveryQuery({}));
    expect(plain.matches).toEqual({});
  });

  it("keeps the document when a session or a review changes", async () => {
    const extra = await createSession(database.db, ids.quotes!, { title: "Qawwali night" });
    expect(await names({ q: "qawwali" })).toEqual(["Anoushka Das"]);
    await database.db.execute(sql`DELETE FROM music_sessions WHERE id = ${extra}`);
    expect(await names({ q: "qawwali" })).toEqual([]);
  });

  it("filters by occasion and counts each one", async () => {
    expect((await names({ occasion: "Recording Session" })).sort()).toEqual(["Anoushka Das"]);
    expect((await names({ occasion: "Wedding", location: "Mumbai" })).sort()).toEqual(
      ["Kabir Sen", "Rhea Kapoor", "Wedding Brass Band"].sort(),
    );
    const { occasions } = await countDiscoveryFacets({ db: database.db });
    expect(occasions).toEqual([
      { value: "Live Show", count: 2 },
      { value: "Private Event", count: 1 },
      { value: "Jam Session", count: 0 },
      { value: "Recording Session", count: 1 },
      { value: "Corporate Event", count: 0 },
      { value: "Wedding", count: 4 },
    ]);
  });

  it("keeps to a budget for the hours, leaving out artists who quote", async () => {
    // ₹9,000 for 3 hours: at most ₹3,000 an hour.
    expect((await names({ location: "Mumbai", budget: 9000, hours: 3 })).sort()).toEqual([
      "Rhea Kapoor",
    ]);
    // ₹12,000 for 3 hours is ₹4,000 an hour: the band's rate exactly.
    expect((await names({ location: "Mumbai", budget: 12_000, hours: 3 })).sort()).toEqual(
      ["Rhea Kapoor", "Wedding Brass Band"].sort(),
    );
    expect(await names({ location: "Mumbai", budget: 1000, hours: 2 })).toEqual([]);
  });

  it("sorts by price, lowest first, artists who quote last", async () => {
    expect(await names({ location: "Mumbai", sort: "price" })).toEqual([
      "Rhea Kapoor",
      "Wedding Brass Band",
      "Kabir Sen",
      "Anoushka Das",
    ]);
    // Words with the price order: the matches, cheapest first.
    expect(await names({ q: "sitar", location: "Mumbai", sort: "price" })).toEqual([
      "Rhea Kapoor",
      "Kabir Sen",
      "Anoushka Das",
    ]);
  });

  it("sorts by price on a date: who marked it available first, cheapest first, as rates change", async () => {
    const day = "2027-04-10";
    for (const key of ["band", "kabir", "quotes"])
      await database.db
        .insert(availability)
        .values({ artistProfileId: ids[key]!, date: day, status: "available" });
    const byPrice = () => names({ location: "Mumbai", sort: "price", date: day });
    expect(await byPrice()).toEqual([
      "Wedding Brass Band",
      "Kabir Sen",
      "Anoushka Das",
      "Rhea Kapoor",
    ]);
    // The marks carry the rate (migration 0031): a new rate reorders them at once.
    const setRate = (hourlyRate: number) =>
      database.db
        .update(artistProfiles)
        .set({ hourlyRate })
        .where(eq(artistProfiles.id, ids.kabir!));
    await setRate(3000);
    expect(await byPrice()).toEqual([
      "Kabir Sen",
      "Wedding Brass Band",
      "Anoushka Das",
      "Rhea Kapoor",
    ]);
    await setRate(6000);
    expect((await byPrice())[0]).toBe("Wedding Brass Band");
  });

  it("combines words, occasion, city, budget and date", async () => {
    expect(
      await names({
        q: "sitar",
        occasion: "Wedding",
        location: "Mumbai",
        budget: 20_000,
        hours: 4,
        date: "2027-03-06",
      }),
    ).toEqual(["Rhea Kapoor"]);
  });
});
