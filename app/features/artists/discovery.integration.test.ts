import { inArray, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type Queryable, queryRows } from "~db/client";
import { artistProfiles, users } from "~db/schema";
import { recordingPrepared } from "../../../tests/support/prepared-statements";
import {
  describeNode,
  discoveryQuery,
  discoveryStatements,
  explainJson,
  freeCountStatements,
  genericPlan,
  planNodes,
  rebind,
  type Statement,
  searchAndCountStatements,
  seqScans,
} from "../../../tests/support/query-plans";
import { createTestDatabase } from "../../../tests/support/test-database";
import { DISCOVERY_PAGE_SIZE, GENRES, LOCATIONS } from "./artists.constants";
import type { DiscoveryQuery } from "./artists.schema";
import { countFreeArtists, searchAndCountFree, searchArtists } from "./discovery.server";
import { countDiscoveryFacets, facetQueries } from "./discovery-facets.server";
import { refreshSearchTermShares } from "./search-term-shares.server";
import { wordsTooRareToWalk } from "./words-walk.server";

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>;

const query = discoveryQuery;

type NewArtist = {
  artistName: string;
  genre: string;
  location: string;
  instruments: string;
  rating: number;
};

let created = 0;
async function addArtists(db: Queryable, artists: NewArtist[]) {
  const ids: string[] = [];
  for (const artist of artists) {
    const n = ++created;
    const [user] = await db
      .insert(users)
      .values({ name: artist.artistName, email: `discovery-${n}@example.com` })
      .returning({ id: users.id });
    const [profile] = await db
      .insert(artistProfiles)
      .values({
        userId: user!.id,
        slug: `discovery-artist-${n}`,
        bio: "Available for weddings and clubs.",
        experience: "5 years",
        ...artist,
      })
      .returning({ id: artistProfiles.id });
    ids.push(profile!.id);
  }
  return ids;
}

const names = (result: { artists: { artistName: string }[] }) =>
  result.artists.map((a) => a.artistName);

describe("searchArtists", () => {
  let database: TestDatabase;
  const search = (fields: Partial<DiscoveryQuery>) =>
    searchArtists({ db: database.db }, null, query(fields));

  beforeAll(async () => {
    database = await createTestDatabase();
    await addArtists(database.db, [
      {
        artistName: "Asha Rao",
        genre: "Jazz Fusion",
        location: "Chicago IL",
        instruments: "Piano, Vocals",
        rating: 4.9,
      },
      {
        artistName: "Kenji Ito",
        genre: "Jazz",
        location: "Chicago IL",
        instruments: "Saxophone, Flute",
        rating: 4.7,
      },
      {
        artistName: "The Blue Notes",
        genre: "Blues",
        location: "New York NY",
        instruments: "Harmonica, Guitar",
        rating: 4.5,
      },
      {
        artistName: "Leo Park",
        genre: "Pop",
        location: "Los Angeles CA",
        instruments: "Piano",
        rating: 4,
      },
      {
        artistName: "Marco Rossi",
        genre: "Classical",
        location: "Chicago IL",
        instruments: "Violin",
        rating: 3.2,
      },
      {
        artistName: "100% Funk",
        genre: "Funk",
        location: "Atlanta GA",
        instruments: "Bass Guitar",
        rating: 2.5,
      },
      {
        artistName: "100 Proof Funk",
        genre: "Funk",
        location: "Atlanta GA",
        instruments: "Drums",
        rating: 2.4,
      },
      {
        artistName: "DJ_Spin",
        genre: "Hip-Hop",
        location: "Atlanta GA",
        instruments: "Turntables",
        rating: 2,
      },
      {
        artistName: "DJ Spin",
        genre: "Hip-Hop",
        location: "Atlanta GA",
        instruments: "Turntables",
        rating: 1.9,
      },
      {
        artistName: "AC\\DC Tribute",
        genre: "Rock",
        location: "Atlanta GA",
        instruments: "Electric Guitar",
        rating: 1,
      },
    ]);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("matches the name, the genre or the instruments, case-insensitively", async () => {
    expect(names(await search({ q: "rao" }))).toEqual(["Asha Rao"]);
    expect(names(await search({ q: "ASHA" }))).toEqual(["Asha Rao"]);
    expect(names(await search({ q: "fusion" }))).toEqual(["Asha Rao"]);
    expect(names(await search({ q: "PIANO" }))).toEqual(["Asha Rao", "Leo Park"]);
    expect(names(await search({ q: "harmonica" }))).toEqual(["The Blue Notes"]);
    expect(names(await search({ q: "Tuba" }))).toEqual([]);
  });

  it("filters the genre by 'contains', case-insensitively", async () => {
    expect(names(await search({ genre: "jazz" }))).toEqual(["Asha Rao", "Kenji Ito"]);
    expect(names(await search({ genre: "Fusion" }))).toEqual(["Asha Rao"]);
    expect(names(await search({ genre: "Metal" }))).toEqual([]);
  });

  it("filters the location exactly", async () => {
    expect(names(await search({ location: "Chicago" }))).toEqual([]);
    expect(names(await search({ location: "Chicago IL" }))).toEqual([
      "Asha Rao",
      "Kenji Ito",
      "Marco Rossi",
    ]);
  });

  it("combines the search and the filters", async () => {
    expect(names(await search({ q: "guitar", location: "Atlanta GA" }))).toEqual([
      "100% Funk",
      "AC\\DC Tribute",
    ]);
    expect(names(await search({ q: "guitar", genre: "rock", location: "Atlanta GA" }))).toEqual([
      "AC\\DC Tribute",
    ]);
    expect(names(await search({ q: "piano", location: "Chicago IL" }))).toEqual(["Asha Rao"]);
  });

  it("lists the best rated first", async () => {
    const { artists, hasMore } = await search({});
    expect(hasMore).toBe(false);
    expect(artists).toHaveLength(10);
    const ratings = artists.map((a) => a.rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(artists[0]).toMatchObject({ artistName: "Asha Rao", rating: 4.9 });
  });

  it("takes % _ and \\ in the search literally", async () => {
    // As words, "100%" is "100" and "dj_spin" is "dj spin" (the text search finds both of each);
    // as characters, % and _ are never wildcards: they find only the names that hold them.
    expect(names(await search({ q: "100%" }))).toEqual(["100% Funk", "100 Proof Funk"]);
    expect(names(await search({ q: "100% f" }))).toEqual(["100% Funk"]);
    expect(names(await search({ q: "dj_spin" }))).toEqual(["DJ_Spin", "DJ Spin"]);
    expect(names(await search({ q: "dj_spi" }))).toEqual(["DJ_Spin"]);
    // Without three letters or digits in a row there is no part of a name to find (decision
    // 069): only whole words count.
    expect(names(await search({ q: "%" }))).toEqual([]);
    expect(names(await search({ q: "ac\\dc trib" }))).toEqual(["AC\\DC Tribute"]);
    expect(names(await search({ genre: "%" }))).toEqual([]);
  });

  it("matches nothing when a field holds a NUL character (no stored text can)", async () => {
    expect(await search({ q: "abc\u0000def" })).toEqual({ artists: [], hasMore: false });
    expect(await search({ genre: "\u0000" })).toEqual({ artists: [], hasMore: false });
    expect(await search({ location: "Chicago IL\u0000" })).toEqual({ artists: [], hasMore: false });
  });

  it("pages by DISCOVERY_PAGE_SIZE, best rated first, ties by id", async () => {
    const count = DISCOVERY_PAGE_SIZE + 6;
    const ids = await addArtists(
      database.db,
      Array.from({ length: count }, (_, i) => ({
        artistName: `Pager ${i}`,
        genre: "Pop",
        location: "Pageville ZZ",
        instruments: "Vocals",
        rating: (i % 7) / 2, // ties on purpose
      })),
    );
    // The other tests count the ten artists above: these go again, whatever the order.
    onTestFinished(async () => {
      await database.db.delete(artistProfiles).where(inArray(artistProfiles.id, ids));
    });
    const ratingOf = new Map(ids.map((id, i) => [id, (i % 7) / 2]));
    const expected = [...ids].sort(
      (a, b) => ratingOf.get(b)! - ratingOf.get(a)! || (a < b ? -1 : a > b ? 1 : 0),
    );

    const page1 = await search({ location: "Pageville ZZ" });
    const page2 = await search({ location: "Pageville ZZ", page: 2 });
    const page3 = await search({ location: "Pageville ZZ", page: 3 });
    expect(page1.artists).toHaveLength(DISCOVERY_PAGE_SIZE);
    expect(page1.hasMore).toBe(true);
    expect(page2.artists).toHaveLength(6);
    expect(page2.hasMore).toBe(false);
    expect(page3).toEqual({ artists: [], hasMore: false });
    expect([...page1.artists, ...page2.artists].map((a) => a.id)).toEqual(expected);
  });
});

// ─── Plans ──────────────────────────────────────────────────────────────────────────────────────

/** A value from `list` chosen by a hash of (g, salt): deterministic, evenly spread. */
function pick(list: readonly string[], salt: number) {
  const values = list.map((v) => `'${v}'`).join(", ");
  return sql.raw(
    `(ARRAY[${values}]::text[])[1 + mod(abs(hashint4(g * 16 + ${salt})::bigint), ${list.length})::int]`,
  );
}

const FIRST = [
  "Maya",
  "Liam",
  "Aisha",
  "Carlos",
  "Priya",
  "Marcus",
  "Sofia",
  "Jamal",
  "Elena",
  "Arjun",
  "Chloe",
  "Diego",
  "Nina",
  "Ravi",
  "Grace",
  "Omar",
  "Zoe",
  "Kofi",
  "Mei",
  "Theo",
];
const LAST = [
  "Johnson",
  "Patel",
  "Garcia",
  "Nguyen",
  "Okafor",
  "Williams",
  "Sharma",
  "Rodriguez",
  "Kim",
  "Brown",
  "Chen",
  "Davis",
  "Singh",
  "Lopez",
  "Kapoor",
  "Lee",
  "Reddy",
  "King",
  "Scott",
  "Nakamura",
];
const GENRE = [
  ...GENRES,
  ...GENRES,
  "Jazz Fusion",
  "Smooth Jazz",
  "Indie Rock",
  "Classic Rock",
  "Blues Rock",
  "Indie Pop",
];
const LOCATION = [...LOCATIONS, ...LOCATIONS, "Boston MA", "Austin TX", "Mumbai", "Seattle WA"];
const INSTRUMENT = [
  "Piano, Vocals",
  "Electric Guitar, Bass",
  "Sitar",
  "Saxophone, Flute",
  "Drums",
  "Acoustic Guitar, Vocals",
  "Violin",
  "Cello",
  "Trumpet",
  "Bass Guitar",
  "Keyboards, Synth",
  "Tabla, Harmonium",
  "Vocals",
  "Harmonica, Guitar",
  "Clarinet",
  "Piano",
];

describe("discovery query plans", () => {
  let database: TestDatabase;
  const ARTISTS = 20_000;
  /** Searches whose page the words' walk reads (this table's words are common enough). */
  const WALKED: Record<string, DiscoveryQuery> = {
    "words (a ranked page)": query({ q: "weddings" }),
    "words in price order": query({ q: "weddings", sort: "price" }),
    "words with location and date": query({
      q: "guitar weddings",
      location: "Mumbai",
      date: "2026-12-05",
    }),
    "words, occasion, budget and location": query({
      q: "guitar weddings",
      occasion: "Wedding",
      budget: 20_000,
      hours: 4,
      location: "Atlanta GA",
    }),
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const { db } = database;
    await db.execute(sql`
      INSERT INTO users (id, name, email)
      SELECT md5('plan-' || g)::uuid, 'Artist ' || g, 'plan-' || g || '@example.com'
      FROM generate_series(1, ${ARTISTS}::int) AS g`);
    await db.execute(sql`
      INSERT INTO artist_profiles (user_id, slug, artist_name, bio, genre, location, experience, instruments, rating)
      SELECT md5('plan-' || g)::uuid, 'plan-artist-' || g, ${pick(FIRST, 1)} || ' ' || ${pick(LAST, 2)},
        'Available for weddings and clubs.', ${pick(GENRE, 3)}, ${pick(LOCATION, 4)}, '5 years',
        ${pick(INSTRUMENT, 5)},
        CASE WHEN mod(abs(hashint4(g * 16 + 6)::bigint), 10) < 3 THEN 0
             ELSE mod(abs(hashint4(g * 16 + 7)::bigint), 501) / 100.0 END
      FROM generate_series(1, ${ARTISTS}::int) AS g`);
    // About one artist in twenty has Client-verified gigs (1 to 8), as the trigger would count.
    await db.execute(sql`
      UPDATE artist_profiles SET client_verified_sessions = 1 + mod(substring(slug from 13)::int / 20, 8)
      WHERE slug LIKE 'plan-artist-%' AND mod(substring(slug from 13)::int, 20) = 0`);
    // One to three occasions each, and a rate for four artists in five.
    await db.execute(sql`
      UPDATE artist_profiles SET
        occasions = CASE mod(substring(slug from 13)::int, 4)
          WHEN 0 THEN ARRAY['Wedding'] WHEN 1 THEN ARRAY['Live Show', 'Corporate Event']
          WHEN 2 THEN ARRAY['Private Event', 'Wedding', 'Jam Session']
          ELSE ARRAY['Recording Session'] END,
        hourly_rate = CASE WHEN mod(substring(slug from 13)::int, 5) = 0 THEN NULL
          ELSE 1000 + mod(substring(slug from 13)::int * 37, 9000) END
      WHERE slug LIKE 'plan-artist-%'`);
    // Ten artists in Mumbai play the sarangi: words the walk finds too few of (decision 069).
    await db.execute(sql`
      UPDATE artist_profiles SET bio = 'Sarangi recitals at weddings.', location = 'Mumbai'
      WHERE slug IN (SELECT 'plan-artist-' || g FROM generate_series(1, 10) AS g)`);
    await db.execute(sql`ANALYZE users`);
    // Vacuumed as autovacuum would have: counts read from an index alone need its visibility map.
    await db.execute(sql`VACUUM (ANALYZE) artist_profiles`);
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("uses indexes, not a sequential scan of artist_profiles", async () => {
    const scenarios: Record<string, DiscoveryQuery> = {
      "name search": query({ q: "johnson" }),
      "genre filter": query({ genre: "Jazz" }),
      "location filter": query({ location: "Chicago IL" }),
      combined: query({ q: "guitar", genre: "Rock", location: "Atlanta GA" }),
      "client-verified filter": query({ clientVerified: 3 }),
      "client-verified with location": query({ clientVerified: 1, location: "Chicago IL" }),
      ...WALKED,
      "words, page 12": query({ q: "weddings", page: 12 }),
      "occasion filter": query({ occasion: "Wedding" }),
      "occasion with location": query({ occasion: "Recording Session", location: "Mumbai" }),
      budget: query({ budget: 6000, hours: 3 }),
      "price order": query({ sort: "price" }),
      "price order with location": query({ sort: "price", location: "Chicago IL" }),
      "price order on a date in a location": query({
        sort: "price",
        date: "2026-12-05",
        location: "Chicago IL",
      }),
      "budget with location": query({ budget: 6000, hours: 3, location: "Mumbai" }),
      "rare words": query({ q: "sarangi recitals" }),
      // Parts of two runs: the planned statement asks the trigram index for one trigram of each.
      "rare words, a full name": query({ q: "Maya Nakamura" }),
      "rare words in price order": query({ q: "sarangi", sort: "price" }),
      "rare words in a location on a date": query({
        q: "sarangi",
        location: "Mumbai",
        date: "2026-12-05",
      }),
    };
    const plans: Record<string, string[]> = {};
    const scanned: string[] = [];
    for (const [name, q] of Object.entries(scenarios)) {
      const found = await searchArtists({ db: database.db }, null, q);
      expect(found.artists.length, `${name} finds artists`).toBeGreaterThan(0);
      // For words, the walk's statement and the one from every match both. The second is sent
      // only for words the walk finds too few of (the rare words here); for words most of this
      // small table holds ("weddings") PostgreSQL rightly reads it whole, so only the rare
      // words' second statement is held to indexes.
      for (const [i, statement] of (await discoveryStatements(q, database.db)).entries()) {
        const { Plan } = await explainJson(database.db, statement);
        plans[`${name} (${i + 1})`] = planNodes(Plan).map(describeNode);
        const sent = i === 0 || name.startsWith("rare words");
        if (sent && seqScans(Plan, "artist_profiles")) scanned.push(`${name} (${i + 1})`);
      }
      // A first page of words on a date: its page and count in one walk (decision 077).
      if (q.q && q.date && q.sort === "") {
        const [one] = await searchAndCountStatements(q);
        if (!one) throw new Error(`${name}: no statement`);
        const { Plan } = await explainJson(database.db, one);
        plans[`${name} (page and count)`] = planNodes(Plan).map(describeNode);
        if (seqScans(Plan, "artist_profiles")) scanned.push(`${name} (page and count)`);
      }
    }
    expect(scanned, JSON.stringify(plans, null, 2)).toEqual([]);
  });

  it("asks the trigram index for one trigram of each of a full name's runs", async () => {
    // No shares counted here: every trigram counts as rare, the first in order is asked for.
    const planned = (await discoveryStatements(query({ q: "Maya Nakamura" }), database.db)).at(-1);
    expect(planned?.params).toEqual(expect.arrayContaining(["%aya%", "%aka%", "maya nakamura"]));
    expect(planned?.params).not.toContain("%maya%");
    expect(planned?.params).not.toContain("%nakamura%");
  });

  it("counts a date's free artists within a budget in a location from that location's rates", async () => {
    // Decision 082: the planned count (after a walk that fell short) reads the location and
    // rate index, where PostgreSQL had to read the rate index and the location index whole and
    // join them (40 ms for ₹150 for 3 hours in Mumbai at a million artists).
    const q = query({ budget: 3300, hours: 3, location: "Mumbai", date: "2026-12-05" });
    expect(await countFreeArtists({ db: database.db }, null, q)).toBeGreaterThan(0);
    const planned = (await freeCountStatements(q)).at(-1);
    if (!planned) throw new Error("no planned count");
    const { Plan } = await explainJson(database.db, planned);
    const nodes = planNodes(Plan).map(describeNode);
    expect(seqScans(Plan, "artist_profiles"), nodes.join(" → ")).toBe(false);
    expect(
      nodes.some((node) => node.includes("artist_profiles_location_rate_idx")),
      nodes.join(" → "),
    ).toBe(true);
  });

  it("finds a date's marks within a budget from the marks' copy of the rate, exactly", async () => {
    // Decision 084: planned, a budget tests the marks' copy of the rate, so a budget few meet
    // reads its marks from an index instead of every mark's artist. Marks on a day of its own:
    // one artist in eight, three in four of those available, the rest busy.
    const day = "2027-01-23";
    await markDay(day, { marked: 1, outOf: 8, busyOneIn: 4, busySalt: "busy" });
    // The bound is a marked artist's rate (the tenth lowest): a test "<" for "<=" would miss them.
    const [bound] = await queryRows<{ rate: number }>(
      database.db,
      sql`SELECT artist_hourly_rate::int AS rate FROM availability
          WHERE date = ${day}::date AND status = 'available' AND artist_hourly_rate IS NOT NULL
          ORDER BY artist_hourly_rate OFFSET 9 LIMIT 1`,
    );
    if (!bound) throw new Error("no marks with a rate");
    const budget = { budget: bound.rate * 3, hours: 3, date: day };
    const reference = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT ap.id FROM artist_profiles ap
          WHERE ap.hourly_rate <= ${bound.rate} AND NOT EXISTS (SELECT 1 FROM artist_busy_days bd
            WHERE bd.artist_profile_id = ap.id AND bd.date = ${day}::date)
          ORDER BY EXISTS (SELECT 1 FROM availability m WHERE m.artist_profile_id = ap.id
              AND m.date = ${day}::date AND m.status = 'available') DESC,
            ap.rating DESC NULLS LAST, ap.id`,
    );
    expect(reference.length).toBeGreaterThan(DISCOVERY_PAGE_SIZE);
    const found: string[] = [];
    for (let page = 1; ; page++) {
      const result = await searchArtists({ db: database.db }, null, query({ ...budget, page }));
      found.push(...result.artists.map((a) => a.id));
      if (!result.hasMore) break;
    }
    expect(found).toEqual(reference.map((r) => r.id));
    // A later page is planned alone: its marks come from an index holding their rate.
    const [planned] = await discoveryStatements(query({ ...budget, page: 2 }));
    if (!planned) throw new Error("no planned statement");
    const { Plan } = await explainJson(database.db, planned);
    const marks = planNodes(Plan).filter((node) => node["Relation Name"] === "availability");
    expect(
      marks.some((node) => String(node["Index Cond"] ?? "").includes("artist_hourly_rate")),
      planNodes(Plan).map(describeNode).join(" → "),
    ).toBe(true);
  });

  it("tests a budget on the rate in the rating-ordered index, with a date or without", async () => {
    // Decision 085: an index holds the rate after the rating order, so reading in rating order
    // tests a budget in the index and reads only the rows within it. Before, the rate was a
    // filter on each row read (page 40 of a budget one artist in sixty meets: 55,000 rows at a
    // million artists). Here a budget one artist in nine meets, on later pages.
    for (const page of [5, 20])
      for (const extra of [{}, { date: "2026-12-05" }]) {
        const q = query({ budget: 2_000 * 3, hours: 3, page, ...extra });
        const planned = (await discoveryStatements(q)).at(-1);
        if (!planned) throw new Error("no statement");
        const { Plan } = await explainJson(database.db, planned);
        const nodes = planNodes(Plan).filter((node) => node["Relation Name"] === "artist_profiles");
        const shape = `page ${page} ${JSON.stringify(extra)}: ${planNodes(Plan).map(describeNode).join(" → ")}`;
        const inIndex = nodes.filter(
          (node) =>
            node["Index Name"] === "artist_profiles_rate_by_rating_idx" &&
            String(node["Index Cond"] ?? "").includes("hourly_rate"),
        );
        expect(inIndex.length, shape).toBe(1);
        const filteredInRatingOrder = nodes.filter(
          (node) =>
            node["Index Name"] === "artist_profiles_listing_idx" &&
            String(node.Filter ?? "").includes("hourly_rate"),
        );
        expect(filteredInRatingOrder, shape).toEqual([]);
      }
  });

  it("keeps one generic plan for the words' walk that works out the words once, not for each row", async () => {
    // The walk is a prepared statement whose generic plan PostgreSQL keeps (decision 075). There
    // a function of a parameter cannot be worked out while planning: left in a condition, it runs
    // again for every row tested (the masks' PL/pgSQL for each of 10,000 index entries).
    const perRow =
      /search_query_bits\(|search_contains_bits\(|websearch_to_tsquery\(|plainto_tsquery\(/;
    const found: string[] = [];
    for (const [name, q] of Object.entries(WALKED)) {
      const [walk] = await discoveryStatements(q);
      const statements = { [name]: walk };
      if (q.date) {
        expect(await countFreeArtists({ db: database.db }, null, q)).toBeGreaterThan(0);
        statements[`${name}, its free count`] = (await freeCountStatements(q))[0];
        if (q.page === 1 && q.sort === "")
          statements[`${name}, its page and count in one`] = (await searchAndCountStatements(q))[0];
      }
      for (const [label, statement] of Object.entries(statements)) {
        if (!statement) throw new Error(`${label}: no statement`);
        expect(statement.text, label).toContain("walked");
        const { Plan } = await genericPlan(database.db, statement);
        for (const node of planNodes(Plan))
          for (const key of ["Filter", "Index Cond", "Join Filter", "Recheck Cond"]) {
            const condition = node[key];
            if (typeof condition === "string" && perRow.test(condition))
              found.push(`${label}: ${node["Node Type"]} ${key} ${condition}`);
          }
      }
    }
    expect(found).toEqual([]);
  });

  it("sends every match of words alone prepared, its plan the text indexes, the words worked out once", async () => {
    // Decision 086: words and nothing else go to every match (when too rare to walk, or when the
    // walk finds less than a page) as a prepared statement. Its plan made without the values (the
    // generic plan) reads the text indexes, with the words worked out once rather than for each
    // row. With a filter or a date, which index serves best rests on the values: not prepared.
    const everyMatch = (text: string) =>
      text.includes("FROM (SELECT * FROM artist_profiles WHERE") && !text.includes("walked");
    const perRow = /websearch_to_tsquery\(/;
    const rankPerRow = /ts_rank\([^"]*websearch_to_tsquery\(/;
    const conditions = ["Filter", "Index Cond", "Recheck Cond"].map(
      (key) => [key, perRow] as const,
    );
    // Words this table holds too few of for the walk (a full name here is common).
    const alone: Record<string, DiscoveryQuery> = {
      "a full name no one has": query({ q: "Maya Okonkwo" }),
      "a rare instrument": query({ q: "sarangi" }),
      "a typo": query({ q: "sitr" }),
      "an or": query({ q: "zzzz or qqqq" }),
      "price order": query({ q: "zzzz", sort: "price" }),
    };
    const found: string[] = [];
    for (const [name, q] of Object.entries(alone)) {
      const { ctx, recorder } = recordingPrepared(database.db);
      await searchArtists(ctx, null, q);
      const planned = (await discoveryStatements(q, database.db)).at(-1);
      if (!planned) throw new Error(`${name}: no statement`);
      expect(recorder.prepared.filter(everyMatch), name).toEqual([planned.text]);
      const { Plan } = await genericPlan(database.db, planned);
      const shape = `${name}: ${planNodes(Plan).map(describeNode).join(" → ")}`;
      expect(seqScans(Plan, "artist_profiles"), shape).toBe(false);
      expect(
        planNodes(Plan).some((node) => node["Index Name"] === "artist_profiles_document_idx"),
        shape,
      ).toBe(true);
      // In a condition, or in the rank (the InitPlans that work the words out once output them).
      for (const node of planNodes(Plan))
        for (const [key, pattern] of [...conditions, ["Output", rankPerRow] as const]) {
          const value = JSON.stringify(node[key] ?? "");
          if (pattern.test(value)) found.push(`${name}: ${node["Node Type"]} ${key} ${value}`);
        }
    }
    expect(found).toEqual([]);
    const withFilters = [
      query({ q: "Maya Nakamura", occasion: "Wedding" }),
      query({ q: "sitr", location: "Mumbai" }),
      query({ q: "zzzz", budget: 20_000, hours: 4 }),
      query({ q: "Maya Nakamura", date: "2026-12-05" }),
    ];
    for (const q of withFilters) {
      const { ctx, recorder } = recordingPrepared(database.db);
      await searchArtists(ctx, null, q);
      expect(recorder.prepared.filter(everyMatch), JSON.stringify(q)).toEqual([]);
    }
  });

  it("walks a date search without words and finds exactly what its planned statement finds", async () => {
    // Decision 080: a date search's page without words also walks first, as a prepared
    // statement with one generic plan; when the walk finds less than a page and one more (a
    // budget few meet), the statement planned with the values answers. Marks on a day of its own:
    // one artist in 50 marked it, half of those available, the rest busy: so a filtered first
    // page holds both those who marked it and the others.
    const day = "2027-01-09";
    await database.db.execute(sql`
      INSERT INTO availability (artist_profile_id, date, status)
      SELECT id, ${day}::date,
        CASE WHEN mod(abs(hashtext(id::text || 'status')), 2) = 0 THEN 'available' ELSE 'unavailable' END
      FROM artist_profiles
      WHERE slug LIKE 'plan-artist-%' AND mod(abs(hashtext(id::text || 'mark')), 50) = 0`);
    // And Chicago's ten best rated marked it available: the others must pass over them.
    await database.db.execute(sql`
      INSERT INTO availability (artist_profile_id, date, status)
      SELECT id, ${day}::date, 'available' FROM artist_profiles
      WHERE slug LIKE 'plan-artist-%' AND location = 'Chicago IL'
      ORDER BY rating DESC NULLS LAST, id LIMIT 10
      ON CONFLICT (artist_profile_id, date) DO UPDATE SET status = 'available'`);
    // "answers": the walk finds a page and one more; "falls short": the planned statement
    // answers after it; "not tried": a later page without words goes to its plan alone.
    type Walk = "answers" | "falls short" | "not tried";
    const cases: Record<string, { q: DiscoveryQuery; walk: Walk }> = {
      "date only": { q: query({ date: day }), walk: "answers" },
      "location and date": { q: query({ location: "Mumbai", date: day }), walk: "answers" },
      "a location whose best rated marked the date": {
        q: query({ location: "Chicago IL", date: day }),
        walk: "answers",
      },
      "occasion, location and date": {
        q: query({ occasion: "Wedding", location: "Mumbai", date: day }),
        walk: "answers",
      },
      "budget, location and date": {
        q: query({ budget: 6000, hours: 3, location: "Chicago IL", date: day }),
        walk: "answers",
      },
      "genre, location and date": {
        q: query({ genre: "Jazz", location: "Chicago IL", date: day }),
        walk: "answers",
      },
      // Parts of two words of a genre ("Jazz Fusion"): the genre's signature holds "fus" only.
      "part of a genre on a date": { q: query({ genre: "z Fus", date: day }), walk: "answers" },
      "client-verified on a date": { q: query({ clientVerified: 1, date: day }), walk: "answers" },
      "price order on a date": { q: query({ sort: "price", date: day }), walk: "answers" },
      "a budget few meet": { q: query({ budget: 3060, hours: 3, date: day }), walk: "falls short" },
      "genre, location and date, page 3": {
        q: query({ genre: "Jazz", location: "Chicago IL", date: day, page: 3 }),
        walk: "not tried",
      },
    };
    const idsOf = async (statement: Statement) =>
      (await queryRows<{ id: string }>(database.db, rebind(statement, ""))).map((r) => r.id);
    for (const [name, { q, walk }] of Object.entries(cases)) {
      const statements = await discoveryStatements(q);
      expect(statements.length, name).toBe(walk === "not tried" ? 1 : 2);
      const planned = statements.at(-1);
      if (!planned) throw new Error(`${name}: no planned statement`);
      const plannedIds = await idsOf(planned);
      // The walk answers when it found a page and one more; then it is the planned page.
      if (statements.length === 2 && statements[0]) {
        const walkIds = await idsOf(statements[0]);
        expect(walkIds.length > DISCOVERY_PAGE_SIZE, name).toBe(walk === "answers");
        if (walk === "answers") expect(walkIds, name).toEqual(plannedIds);
      }
      const found = await searchArtists({ db: database.db }, null, q);
      expect(found.artists.length, name).toBeGreaterThan(0);
      expect(
        found.artists.map((a) => a.id),
        name,
      ).toEqual(plannedIds.slice(0, DISCOVERY_PAGE_SIZE));
      expect(found.hasMore, name).toBe(plannedIds.length > DISCOVERY_PAGE_SIZE);
    }
  });

  it("tests a budget on the walk's index entries and the marks, reading no artist's row only to drop it", async () => {
    // Decision 087: a date search's walk without words in rating order reads the rate-by-rating
    // index and tests the rate there; in price order, the price index's; and the day's marks are
    // tested on their copy of the rate. Before, each artist's row was read to test its rate: for a
    // budget one artist in fifty meets, 2,600 rows read to keep about fifty. Marks on a day of
    // their own: one artist in five marked it available, one in ten is busy.
    const day = "2027-01-30";
    await markDay(day, { marked: 3, outOf: 10, busyOneIn: 3, busySalt: "few" });
    const budget = { budget: 3540, hours: 3, date: day };
    const cases: Record<string, Statement | undefined> = {
      "the page": (await discoveryStatements(query(budget)))[0],
      "the page and count": (await searchAndCountStatements(query(budget)))[0],
      "the count": (await freeCountStatements(query(budget)))[0],
      "the page in price order": (
        await discoveryStatements(query({ ...budget, sort: "price" }))
      )[0],
    };
    for (const [name, statement] of Object.entries(cases)) {
      if (!statement) throw new Error(`${name}: no statement`);
      expect(statement.text, name).toContain("walked");
      const { Plan } = await explainJson(database.db, statement, "ANALYZE");
      const shape = `${name}: ${planNodes(Plan).map(describeNode).join(" → ")}`;
      const rowsRead = planNodes(Plan).filter(
        (node) =>
          node["Relation Name"] === "artist_profiles" &&
          node["Index Name"] === "artist_profiles_pkey",
      );
      expect(rowsRead.length, shape).toBeGreaterThan(0);
      const dropped = rowsRead.filter(
        (node) =>
          String(node.Filter ?? "").includes("hourly_rate") &&
          Number(node["Rows Removed by Filter"] ?? 0) > 0,
      );
      expect(
        dropped.map((node) => `${node["Index Cond"]}: ${node["Rows Removed by Filter"]} dropped`),
        shape,
      ).toEqual([]);
    }
    // And what is found is what the statement planned with the values finds.
    for (const q of [
      query(budget),
      query({ ...budget, sort: "price" }),
      query({ ...budget, page: 2 }),
    ]) {
      const planned = (await discoveryStatements(q)).at(-1);
      if (!planned) throw new Error("no planned statement");
      const plannedIds = (await queryRows<{ id: string }>(database.db, rebind(planned, ""))).map(
        (r) => r.id,
      );
      const found = await searchArtists({ db: database.db }, null, q);
      expect(found.artists.length).toBe(DISCOVERY_PAGE_SIZE);
      expect(found.artists.map((a) => a.id)).toEqual(plannedIds.slice(0, DISCOVERY_PAGE_SIZE));
    }
    expect(await countFreeArtists({ db: database.db }, null, query(budget))).toBeGreaterThan(
      DISCOVERY_PAGE_SIZE,
    );
  });

  it("reads a date's marks in price order from the by-price index, passing over them by their signatures", async () => {
    // Decision 089: the marks' by-price index carries the signatures, as the rating-ordered one
    // does, so an occasion (or words, or a genre) in price order is tested on the index's
    // entries. Before, PostgreSQL read the day's marks from the rating-ordered index, each mark's
    // artist, and sorted them by price: 2,872 rows for a page of Wedding at a million artists.
    // Marks on a day of their own: one artist in four marked it available.
    const day = "2027-02-13";
    await database.db.execute(sql`
      INSERT INTO availability (artist_profile_id, date, status)
      SELECT id, ${day}::date, 'available' FROM artist_profiles
      WHERE slug LIKE 'plan-artist-%' AND mod(abs(hashtext(id::text || 'price')), 4) = 0`);
    await database.db.execute(sql`VACUUM (ANALYZE) availability`);
    const cases: Record<string, DiscoveryQuery> = {
      "an occasion in price order, page 1 (the walk)": query({
        occasion: "Recording Session",
        date: day,
        sort: "price",
      }),
      "an occasion in price order, page 3 (planned)": query({
        occasion: "Recording Session",
        date: day,
        sort: "price",
        page: 3,
      }),
      "a genre in price order in a location": query({
        genre: "Jazz",
        location: "Chicago IL",
        date: day,
        sort: "price",
        page: 2,
      }),
    };
    for (const [name, q] of Object.entries(cases)) {
      const [first] = await discoveryStatements(q);
      if (!first) throw new Error(`${name}: no statement`);
      // This table's marks are few enough to read whole; at a million artists they are not.
      const { Plan } = await database.db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL enable_seqscan = off`);
        return explainJson(tx, first, "ANALYZE");
      });
      const shape = `${name}: ${planNodes(Plan).map(describeNode).join(" → ")}`;
      // The marked branch's read of the marks (not the probe whether an artist marked the day).
      const marks = planNodes(Plan).filter(
        (node) =>
          node["Relation Name"] === "availability" &&
          node["Index Name"] !== "availability_artist_profile_id_date_index",
      );
      expect(
        marks.map((node) => [
          node["Node Type"],
          node["Index Name"],
          /artist_(search|name)_bits/.test(String(node.Filter)),
        ]),
        shape,
      ).toEqual([
        [
          "Index Only Scan",
          expect.stringMatching(/^availability_available_(in_)?by_price_idx$/),
          true,
        ],
      ]);
      const found = await searchArtists({ db: database.db }, null, q);
      expect(found.artists.length, name).toBe(DISCOVERY_PAGE_SIZE);
      expect(found.artists.filter((a) => a.markedAvailable).length, name).toBeGreaterThan(0);
    }
  });

  it("finds a date's page and free count for words too rare to walk in one statement, exactly", async () => {
    // Decision 088: for words the terms' shares call too rare to walk, a date search's page and
    // count come from one statement that finds every match first, in a CTE PostgreSQL plans for
    // all its rows. With a limit over the whole, PostgreSQL, which thought such words common,
    // read the table in its order for the limit's worth: a typo with a budget on a date took
    // 380-450 ms to count at a million artists. The shares are counted here for this test only,
    // under a database object of its own, so the other tests' verdicts stay as they were.
    const { ctx } = recordingPrepared(database.db);
    onTestFinished(async () => {
      await database.db.execute(sql`DELETE FROM search_term_shares`);
    });
    await refreshSearchTermShares(ctx);
    // The ten sarangi players (Mumbai): two busy that day, two marked it available.
    const day = "2027-02-06";
    await database.db.execute(sql`
      INSERT INTO availability (artist_profile_id, date, status)
      SELECT id, ${day}::date,
        CASE WHEN slug IN ('plan-artist-2', 'plan-artist-7') THEN 'unavailable' ELSE 'available' END
      FROM artist_profiles
      WHERE slug IN ('plan-artist-2', 'plan-artist-7', 'plan-artist-3', 'plan-artist-9')`);
    const cases: DiscoveryQuery[] = [
      query({ q: "sarangi", date: day }),
      query({ q: "sarangi", date: day, sort: "price" }),
      query({ q: "sarangi", budget: 3600, hours: 3, date: day }),
      query({ q: "sarangi recitals", location: "Mumbai", date: day }),
      query({ q: "sarangi", date: day, page: 2 }),
      query({ q: "sitr", budget: 3600, hours: 3, date: day }),
    ];
    const rowsOf = async (statement: Statement | undefined) => {
      if (!statement) throw new Error("no statement");
      return queryRows<{ id: string; marked_available: boolean; n: number }>(
        database.db,
        rebind(statement, ""),
      );
    };
    for (const q of cases) {
      const name = JSON.stringify(q);
      expect(await wordsTooRareToWalk(ctx, q.q), name).toBe(true);
      const statements = await searchAndCountStatements(q, ctx.db);
      expect(statements.length, name).toBe(1);
      const [one] = statements;
      if (!one) throw new Error(`${name}: no statement`);
      // Every match first, planned for all its rows: at this table's size PostgreSQL reads the
      // text indexes either way, so the statement itself is held to it.
      expect(one.text, name).toMatch(/^WITH matched AS MATERIALIZED \(\s*SELECT id, rating/);
      const { Plan } = await explainJson(database.db, one);
      const shape = `${name}: ${planNodes(Plan).map(describeNode).join(" → ")}`;
      expect(seqScans(Plan, "artist_profiles"), shape).toBe(false);
      // The same as the statements planned with the values find (those for words not rare).
      const expected = await rowsOf((await discoveryStatements(q)).at(-1));
      const [counted] = await rowsOf((await freeCountStatements(q)).at(-1));
      const found = await searchAndCountFree(ctx, null, q);
      const page = expected.slice(0, DISCOVERY_PAGE_SIZE);
      expect(
        found.artists.map((a) => [a.id, a.markedAvailable]),
        name,
      ).toEqual(page.map((r) => [r.id, r.marked_available]));
      expect(found.hasMore, name).toBe(expected.length > DISCOVERY_PAGE_SIZE);
      expect(found.freeCount, name).toBe(counted?.n);
      expect(
        (await searchArtists(ctx, null, q)).artists.map((a) => a.id),
        name,
      ).toEqual(page.map((r) => r.id));
      expect(await countFreeArtists(ctx, null, q), name).toBe(counted?.n);
    }
    // The first page holds the two who marked the day first, and the busy two nowhere.
    const first = await searchAndCountFree(ctx, null, cases[0] as DiscoveryQuery);
    expect(first.artists.length).toBe(8);
    expect(first.freeCount).toBe(8);
    expect(first.artists.slice(0, 2).every((a) => a.markedAvailable)).toBe(true);
  });

  /**
   * Marks on a day of its own: `marked` in `outOf` of the plan artists (by a hash of their id),
   * one in `busyOneIn` of those unavailable (by a hash with `busySalt`), the rest available.
   */
  async function markDay(
    day: string,
    {
      marked,
      outOf,
      busyOneIn,
      busySalt,
    }: { marked: number; outOf: number; busyOneIn: number; busySalt: string },
  ) {
    await database.db.execute(sql`
      INSERT INTO availability (artist_profile_id, date, status)
      SELECT id, ${day}::date,
        CASE WHEN mod(abs(hashtext(id::text || ${busySalt})), ${busyOneIn}::int) = 0
          THEN 'unavailable' ELSE 'available' END
      FROM artist_profiles
      WHERE slug LIKE 'plan-artist-%' AND mod(abs(hashtext(id::text || 'day')), ${outOf}::int) < ${marked}::int`);
  }

  /** The plan of one facet query, and whether it reads artist_profiles sequentially. */
  async function facetPlan(query: SQL) {
    const { sql: text, params } = new PgDialect().sqlToQuery(query);
    const { Plan } = await explainJson(database.db, { text, params });
    return { nodes: planNodes(Plan).map(describeNode), seqScan: seqScans(Plan, "artist_profiles") };
  }

  it("counts the locations from the location index, without a sequential scan", async () => {
    const facets = await countDiscoveryFacets({ db: database.db });
    expect(facets.locations.map((f) => f.value)).toContain("Mumbai");
    const plan = await facetPlan(facetQueries().locations);
    expect(plan.seqScan, plan.nodes.join(" → ")).toBe(false);
    // Any index that leads with location serves the skip scan; the planner picks by its costs
    // (the narrowest, location and rate, since decision 082).
    const locationIndexScans = plan.nodes.filter((node) =>
      /^Index (Only )?Scan using artist_profiles_location(_genre|_rate)?_idx on artist_profiles$/.test(
        node,
      ),
    );
    expect(locationIndexScans.length, plan.nodes.join(" → ")).toBeGreaterThan(0);
  });

  it("counts the occasions from their index, without a sequential scan", async () => {
    const facets = await countDiscoveryFacets({ db: database.db });
    expect(facets.occasions.find((f) => f.value === "Wedding")?.count).toBe(ARTISTS / 2);
    const plan = await facetPlan(facetQueries().occasions);
    expect(plan.seqScan, plan.nodes.join(" → ")).toBe(false);
  });

  it("counts the genres without a sequential scan", async () => {
    const plan = await facetPlan(facetQueries().genres);
    expect(plan.seqScan, plan.nodes.join(" → ")).toBe(false);
  });
});
