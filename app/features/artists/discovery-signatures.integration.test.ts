import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runQueuesNow } from "~/lib/jobs.server";
import { queryRows } from "~db/client";
import { EVENT_TYPES } from "~db/enums";
import { artistProfiles, availability, musicSessions } from "~db/schema";
import { createArtist, createSession } from "~seed/factories";
import { discoveryQuery } from "../../../tests/support/query-plans";
import { createTestDatabase } from "../../../tests/support/test-database";
import { DISCOVERY_PAGE_SIZE } from "./artists.constants";
import type { DiscoveryQuery } from "./artists.schema";
import { searchArtists } from "./discovery.server";
import {
  artistJobs,
  SEARCH_TERM_SHARES_QUEUE,
  wordsAreRare,
  wordsVerdict,
} from "./search-term-shares.server";

// The search's signatures (decision 065) only save work: every artist the words match has every
// bit of the words' masks (and of the occasion's words, for an artist who plays it), so the
// words' walk, and a day's marks with their copies of the signatures (decision 067), find exactly
// what testing every artist finds. Checked over many artists and awkward queries, before and
// after the texts change, and once the terms' shares send rare words to every match first
// (decision 070).

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
  "dj k",
  "ka",
  "a b",
  "100%",
  "acoustic_sets",
  "smooth ja",
  "zzzz",
  "-sitar",
  // Parts of several runs: the trigram index is asked for each run's rarest trigram (decision 083).
  "maya rodriguez",
  "aya rodrig",
  "lucía o'brien",
];

/** `%q%` for LIKE, with the user's own % _ \ taken literally (as the search box's test does). */
const containsPattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** A part of a name counts from three letters or digits in a row (decision 069). */
const hasTrigram = (q: string) => /[\p{L}\p{N}]{3}/u.test(q);

describe("the words' walk finds exactly what every artist's test finds", () => {
  let database: TestDatabase;
  const day = "2027-03-06";

  /** Every artist the words match, best rated first: the conditions tested on every row. */
  async function everyMatch(q: string, { location = "", occasion = "", byPrice = false } = {}) {
    const rows = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM artist_profiles
          WHERE (search_document @@ websearch_to_tsquery('english', ${q})
            OR (${hasTrigram(q)} AND lower(artist_name || ' ' || genre || ' ' || instruments)
              LIKE ${containsPattern(q)}))
            AND (${location} = '' OR location = ${location})
            AND (${occasion} = '' OR ${occasion} = ANY (occasions))
          ORDER BY ${byPrice ? sql`hourly_rate ASC NULLS LAST` : sql`rating DESC NULLS LAST`}, id`,
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

  /** Artists who play an occasion whose signature lacks a bit of its words' mask: must be none. */
  async function occasionsMissedBySignatures() {
    const missed: Record<string, number> = {};
    for (const occasion of EVENT_TYPES) {
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`SELECT count(*)::int AS n FROM artist_profiles
            WHERE ${occasion} = ANY (occasions)
              AND (search_bits & search_query_bits(plainto_tsquery('english', ${occasion})))
                <> search_query_bits(plainto_tsquery('english', ${occasion}))`,
      );
      missed[occasion] = row?.n ?? -1;
    }
    return missed;
  }

  /** Marks whose copies of their artist's signatures differ from the artist's: must be none. */
  async function marksOutOfStep() {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM availability av
          JOIN artist_profiles ap ON ap.id = av.artist_profile_id
          WHERE av.artist_search_bits <> ap.search_bits OR av.artist_name_bits <> ap.name_bits`,
    );
    return row?.n;
  }

  async function expectSameAsEveryMatch() {
    for (const q of QUERIES) {
      expect(await missedBySignatures(q), q).toEqual({ words: 0, contains: 0 });
      expect(await pages({ q }), q).toEqual(chunks(await everyMatch(q)));
      expect(await pages({ q, location: "Mumbai" }), `${q} in Mumbai`).toEqual(
        chunks(await everyMatch(q, { location: "Mumbai" })),
      );
      expect(await pages({ q, sort: "price" }), `${q} by price`).toEqual(
        chunks(await everyMatch(q, { byPrice: true })),
      );
    }
    for (const occasion of EVENT_TYPES)
      expect((await occasionsMissedBySignatures())[occasion], occasion).toBe(0);
    for (const q of ["wedding", "jazz", "sitar -wedding", "kapo", "jazz or blues"])
      for (const occasion of ["Corporate Event", "Live Show"] as const) {
        expect(await pages({ q, occasion }), `${q} for ${occasion}`).toEqual(
          chunks(await everyMatch(q, { occasion })),
        );
      }
  }

  /** On the day: every match, the marked ones among them, whatever the words and occasion. */
  async function expectSameOnTheDay() {
    expect(await marksOutOfStep()).toBe(0);
    for (const q of ["wedding sitar", "jazz", "kapo", "jazz or blues", "rodrig", "naïve café"])
      for (const occasion of ["", "Corporate Event"] as const) {
        const found = (await pages({ q, occasion, date: day })).flat().sort();
        expect(found, `${q} for ${occasion}`).toEqual(
          [...(await everyMatch(q, { occasion }))].sort(),
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
        occasions:
          i % 3 === 0
            ? ["Wedding"]
            : i % 3 === 1
              ? ["Corporate Event"]
              : ["Live Show", "Corporate Event", "Private Event"],
      });
      await database.db
        .update(artistProfiles)
        .set({ rating: (i * 37) % 50 === 0 ? 0 : ((i * 37) % 50) / 10 })
        .where(eq(artistProfiles.id, artistId));
      if (i % 4 === 0)
        await createSession(database.db, artistId, { title: "Wedding sangeet at Juhu" });
      // Every fifth artist marks the day available (the mark copies the signatures as written).
      if (i % 5 === 0)
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
    // Marked artists are found by their marks' copies of the signatures.
    const marked = (await pages({ q: "jazz", date: day })).flat();
    expect(marked.length).toBeGreaterThan(0);
    await expectSameOnTheDay();
  });

  it("still after a name, genre and bio change, and a session is logged and deleted", async () => {
    // An artist who marked the day available: their marks follow their signatures.
    const [first] = await database.db
      .select({ id: availability.artistProfileId })
      .from(availability)
      .where(eq(availability.date, day));
    const id = first!.id;
    await database.db
      .update(artistProfiles)
      .set({ artistName: "Kapoor Rodrigues", bio: "Corporate saxophone nights.", genre: "Hip-Hop" })
      .where(eq(artistProfiles.id, id));
    await createSession(database.db, id, { title: "Naïve café wedding jazz piano" });
    await expectSameAsEveryMatch();
    await expectSameOnTheDay();
    expect((await pages({ q: "naïve café" })).flat()).toContain(id);
    expect((await pages({ q: "naïve café", date: day })).flat()).toContain(id);
    // The session goes: the document and its signature follow.
    await database.db.delete(musicSessions).where(eq(musicSessions.artistProfileId, id));
    expect(await missedBySignatures("wedding")).toEqual({ words: 0, contains: 0 });
    expect((await pages({ q: "naïve café" })).flat()).not.toContain(id);
    expect(await marksOutOfStep()).toBe(0);
    expect((await pages({ q: "naïve café", date: day })).flat()).not.toContain(id);
  });

  it("sets name bits only for trigrams inside words, the ones a 'contains' mask asks for", async () => {
    // Words of one or two letters have only padded trigrams ("  d", " dj", "dj "): no mask is
    // made of those (decision 076), so they set no bit and let no pattern through by chance.
    const { artistId } = await createArtist(
      { db: database.db },
      {
        name: "DJ Ko",
        genre: "Ur",
        instruments: "Tá, Bo",
        bio: "Short names.",
        experience: "2 years",
      },
    );
    await database.db
      .insert(availability)
      .values({ artistProfileId: artistId, date: day, status: "available" });
    const [row] = await queryRows<{ name_bits: string; mark_bits: string }>(
      database.db,
      sql`SELECT ap.name_bits::text, av.artist_name_bits::text AS mark_bits
          FROM artist_profiles ap JOIN availability av ON av.artist_profile_id = ap.id
          WHERE ap.id = ${artistId}`,
    );
    expect(row).toEqual({ name_bits: "0", mark_bits: "0" });
    // "Oud" is a word of three letters: its one inner trigram sets its bit, found as a part.
    await database.db
      .update(artistProfiles)
      .set({ instruments: "Oud" })
      .where(eq(artistProfiles.id, artistId));
    const [oud] = await queryRows<{ same: boolean }>(
      database.db,
      sql`SELECT name_bits = search_contains_bits('oud') AND name_bits <> 0 AS same
          FROM artist_profiles WHERE id = ${artistId}`,
    );
    expect(oud?.same).toBe(true);
    expect(await marksOutOfStep()).toBe(0);
    await database.db.delete(artistProfiles).where(eq(artistProfiles.id, artistId));
  });

  it("still once the terms' shares send rare words straight to every match", async () => {
    const ctx = { db: database.db };
    // Nothing counted yet: no words are taken for rare, every search walks first.
    expect(await wordsAreRare(ctx, "zzzz", { withParts: true })).toBe(false);
    const [run] = await runQueuesNow(database.db, artistJobs(ctx), [SEARCH_TERM_SHARES_QUEUE]);
    expect(run?.errors).toEqual([]);
    const [sitar] = await queryRows<{ share: number }>(
      database.db,
      sql`SELECT share FROM search_term_shares WHERE kind = 'word' AND term = 'sitar'`,
    );
    // Every artist is sampled in a small catalogue: the share is exact.
    const [counted] = await queryRows<{ share: number }>(
      database.db,
      sql`SELECT (count(*) FILTER (WHERE search_document @@ 'sitar'::tsquery))::float8 / count(*)
            AS share FROM artist_profiles`,
    );
    expect(sitar?.share).toBeCloseTo(counted?.share ?? -1, 10);
    // Unknown words and parts are rare; common ones, negations and any common alternative not.
    for (const [q, rare] of [
      ["zzzz", true],
      ["zzzz or qqqq", true],
      ["sitr", true],
      ["jazz", false],
      ["rodrig", false],
      ["jazz or zzzz", false],
      ["-sitar", false],
      ["-zzzz", false],
      ["the", false],
    ] as const)
      expect(await wordsAreRare(ctx, q, { withParts: hasTrigram(q) }), q).toBe(rare);
    // A part of a name keeps a search common: "rodrig" is no word, but a name holds it.
    expect(await wordsAreRare(ctx, "rodrig", { withParts: false })).toBe(true);
    // Each run's trigram for the index: one of its own, none shared by more artists; a run of
    // unknown letters still gives one of its own, and one with none pg_trgm keeps as letters null.
    const runs = ["maya", "rodriguez", "jazzy", "zzzz", "ünï"];
    const { rarestTrigrams } = await wordsVerdict(ctx, "maya rodriguez jazzy zzzz ünï", {
      withParts: true,
      runs,
    });
    expect(rarestTrigrams).toHaveLength(runs.length);
    for (const [i, run] of runs.entries()) {
      const shares = await queryRows<{ term: string; share: number }>(
        database.db,
        sql`SELECT t AS term, coalesce(s.share, 0) AS share FROM unnest(show_trgm(${run})) t
            LEFT JOIN search_term_shares s ON s.kind = 'part' AND s.term = t
            WHERE length(t) = 3 AND strpos(${run}, t) > 0`,
      );
      const chosen = rarestTrigrams[i];
      if (shares.length === 0) {
        expect(chosen, run).toBeNull();
        continue;
      }
      expect(run, run).toContain(chosen);
      const least = Math.min(...shares.map((t) => t.share));
      expect(shares.find((t) => t.term === chosen)?.share, run).toBe(least);
    }
    // "jazzy": "jaz" and "azz" are in every jazz artist's genre, "zzy" in nobody's.
    expect(rarestTrigrams[2]).toBe("zzy");
    expect(rarestTrigrams[3]).toBe("zzz");
    expect(rarestTrigrams[4]).toBeNull();
    await expectSameAsEveryMatch();
    await expectSameOnTheDay();
  });
});
