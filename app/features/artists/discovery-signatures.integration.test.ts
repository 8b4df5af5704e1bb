import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~db/client";
import { artistProfiles, availability, musicSessions } from "~db/schema";
import { createArtist, createSession } from "~seed/factories";
import { discoveryQuery } from "../../../tests/support/query-plans";
import { createTestDatabase } from "../../../tests/support/test-database";
import { DISCOVERY_PAGE_SIZE } from "./artists.constants";
import type { DiscoveryQuery } from "./artists.schema";
import { searchArtists } from "./discovery.server";

// The search's signatures (decision 065) only save work: every artist the words match has every
// bit of the words' masks, so the words' walk finds exactly what testing every artist finds.
// Checked over many artists and awkward queries, before and after the texts change.

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

const NAMES = [
  "Maya",
  "Rhea",
  "Kabir",
  "Zoë",
  "Seán",
  "O'Brien",
  "Ana-Lucía",
  "DJ Kay",
  "Rodriguez",
];
const GENRES = ["Jazz", "Smooth Jazz", "Hip-Hop", "Classical", "Bollywood Fusion", "Café Blues"];
const INSTRUMENTS = ["Sitar", "Piano, Vocals", "Tabla, Harmonium", "Saxophone", "Drums", "Violin"];
const BIOS = [
  "Sitar for weddings and lounges.",
  "Jazz piano at corporate evenings.",
  "Plays the harmonium; 100% acoustic_sets.",
  "Baraat processions, dhol and brass.",
  "Late sets in cafés, smooth and slow.",
  "Ünïcode bio: naïve façade.",
];
const LOCATIONS = ["Mumbai", "Pune", "Chicago IL"];

const QUERIES = [
  "wedding sitar",
  "weddings",
  "jazz piano weddings",
  "corporate saxophone",
  "kapo",
  "rodrig",
  "jazz or blues",
  "sitar -wedding",
  '"jazz piano"',
  '"piano at corporate evenings"',
  '"sangeet at Juhu" (wedding)',
  "o'brien",
  "hip-hop",
  "café",
  "Zoë",
  "naïve",
  "the",
  "DJ",
  "100%",
  "acoustic_sets",
  "smooth ja",
  "zzzz",
  "-sitar",
];

/** `%q%` for LIKE, with the user's own % _ \ taken literally (as the search box's test does). */
const containsPattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

describe("the words' walk finds exactly what every artist's test finds", () => {
  let database: TestDatabase;
  const day = "2027-03-06";

  /** Every artist the words match, best rated first: the conditions tested on every row. */
  async function everyMatch(q: string, location = "") {
    const rows = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM artist_profiles
          WHERE (search_document @@ websearch_to_tsquery('english', ${q})
            OR lower(artist_name || ' ' || genre || ' ' || instruments)
              LIKE ${containsPattern(q)})
            AND (${location} = '' OR location = ${location})
          ORDER BY rating DESC NULLS LAST, id`,
    );
    return rows.map((r) => r.id);
  }

  /** Every page the search shows, each page's ids sorted (a page is ordered by relevance). */
  async function pages(fields: Partial<DiscoveryQuery>) {
    const found: string[][] = [];
    for (let page = 1; ; page++) {
      const result = await searchArtists(
        { db: database.db },
        null,
        discoveryQuery({ ...fields, page }),
      );
      found.push(result.artists.map((a) => a.id).sort());
      if (!result.hasMore) return found;
    }
  }

  const chunks = (ids: string[]) => {
    const out: string[][] = [];
    for (let i = 0; i < ids.length || out.length === 0; i += DISCOVERY_PAGE_SIZE)
      out.push(ids.slice(i, i + DISCOVERY_PAGE_SIZE).sort());
    return out;
  };

  /** Rows the words match whose signatures lack a bit of the masks: must be none. */
  async function missedBySignatures(q: string) {
    const [row] = await queryRows<{ words: number; contains: number }>(
      database.db,
      sql`SELECT
          count(*) FILTER (WHERE search_document @@ websearch_to_tsquery('english', ${q})
            AND (search_bits & search_query_bits(websearch_to_tsquery('english', ${q})))
              <> search_query_bits(websearch_to_tsquery('english', ${q})))::int AS words,
          count(*) FILTER (WHERE lower(artist_name || ' ' || genre || ' ' || instruments)
              LIKE ${containsPattern(q)}
            AND (name_bits & search_contains_bits(${q})) <> search_contains_bits(${q}))::int AS contains
        FROM artist_profiles`,
    );
    return row;
  }

  async function expectSameAsEveryMatch() {
    for (const q of QUERIES) {
      expect(await missedBySignatures(q), q).toEqual({ words: 0, contains: 0 });
      expect(await pages({ q }), q).toEqual(chunks(await everyMatch(q)));
      expect(await pages({ q, location: "Mumbai" }), `${q} in Mumbai`).toEqual(
        chunks(await everyMatch(q, "Mumbai")),
      );
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const ctx = { db: database.db };
    // 90 artists: every combination is not needed, only many different texts and ratings.
    for (let i = 0; i < 90; i++) {
      const pick = <T>(list: T[], step: number) => list[(i * step) % list.length] as T;
      const { artistId } = await createArtist(ctx, {
        name: `${pick(NAMES, 1)} ${pick(NAMES, 5)} ${i}`,
        genre: pick(GENRES, 7),
        location: pick(LOCATIONS, 1),
        instruments: pick(INSTRUMENTS, 5),
        bio: pick(BIOS, 11),
        experience: "5 years",
        hourlyRate: 1000 + i * 50,
        occasions: i % 3 === 0 ? ["Wedding"] : ["Corporate Event"],
      });
      await database.db
        .update(artistProfiles)
        .set({ rating: (i * 37) % 50 === 0 ? 0 : ((i * 37) % 50) / 10 })
        .where(eq(artistProfiles.id, artistId));
      if (i % 4 === 0)
        await createSession(database.db, artistId, { title: "Wedding sangeet at Juhu" });
      if (i % 10 === 0)
        await database.db
          .insert(availability)
          .values({ artistProfileId: artistId, date: day, status: "available" });
    }
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("for words alone and within a location, page by page", async () => {
    // Some words find more than a page: the walk's answer is the one shown, not the fallback's.
    expect((await everyMatch("jazz")).length).toBeGreaterThan(DISCOVERY_PAGE_SIZE + 1);
    expect((await everyMatch("wedding")).length).toBeGreaterThan(DISCOVERY_PAGE_SIZE + 1);
    await expectSameAsEveryMatch();
  });

  it("for words on a date: the marked first, then the others, none lost", async () => {
    for (const q of ["wedding sitar", "jazz", "kapo", "jazz or blues", "rodrig"]) {
      const found = (await pages({ q, date: day })).flat().sort();
      expect(found, q).toEqual([...(await everyMatch(q))].sort());
    }
  });

  it("still after a name, genre and bio change, and a session is logged and deleted", async () => {
    const [first] = await database.db.select({ id: artistProfiles.id }).from(artistProfiles);
    const id = first!.id;
    await database.db
      .update(artistProfiles)
      .set({ artistName: "Kapoor Rodrigues", bio: "Corporate saxophone nights.", genre: "Hip-Hop" })
      .where(eq(artistProfiles.id, id));
    await createSession(database.db, id, { title: "Naïve café wedding jazz piano" });
    await expectSameAsEveryMatch();
    expect((await pages({ q: "naïve café" })).flat()).toContain(id);
    // The session goes: the document and its signature follow.
    await database.db.delete(musicSessions).where(eq(musicSessions.artistProfileId, id));
    expect(await missedBySignatures("wedding")).toEqual({ words: 0, contains: 0 });
    expect((await pages({ q: "naïve café" })).flat()).not.toContain(id);
  });
});
