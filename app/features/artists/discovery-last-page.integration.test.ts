import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../../../tests/support/app-harness";
import { pageText } from "../../../tests/support/page-text";
import { createTestDatabase } from "../../../tests/support/test-database";
import { DISCOVERY_LAST_PAGE, DISCOVERY_PAGE_SIZE } from "./artists.constants";

// Discovery lists a search's first DISCOVERY_LAST_PAGE pages (decision 081): the last one says
// how to see others instead of offering a page that would read every artist before it.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
const SHOWN = DISCOVERY_LAST_PAGE * DISCOVERY_PAGE_SIZE;
const ARTISTS = SHOWN + 10;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  await database.db.execute(sql`
    INSERT INTO users (id, name, email)
    SELECT md5('deep-' || g)::uuid, 'Artist ' || g, 'deep-' || g || '@example.com'
    FROM generate_series(1, ${ARTISTS}::int) AS g`);
  await database.db.execute(sql`
    INSERT INTO artist_profiles (user_id, slug, artist_name, bio, genre, location, experience, instruments, rating)
    SELECT md5('deep-' || g)::uuid, 'deep-artist-' || g, 'Deep Artist ' || g, 'Plays.', 'Jazz',
      'Pune', '5 years', 'Piano', mod(g, 50) / 10.0
    FROM generate_series(1, ${ARTISTS}::int) AS g`);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const page = async (query: string) => {
  const res = await app.request(`/artist-discovery?${query}`);
  expect(res.status, query).toBe(200);
  return res.text();
};
/** The page the Next button asks for, if there is one. */
const nextPage = (html: string) =>
  /<button(?=[^>]*name="page")[^>]*value="(\d+)"[^>]*>Next<\/button>/.exec(html)?.[1];
/** How many artists' cards the page shows. */
const cards = (text: string) => text.match(/Deep Artist \d+ /g)?.length ?? 0;
const firstShown = `These are the first ${SHOWN} artists found.`;

describe("discovery's last page", () => {
  it("offers the next page before the last one, and says nothing of a limit", async () => {
    const html = await page(`page=${DISCOVERY_LAST_PAGE - 1}`);
    expect(nextPage(html)).toBe(String(DISCOVERY_LAST_PAGE));
    expect(pageText(html)).not.toContain(firstShown);
  });

  it("offers no next page while more match, and says how to see others", async () => {
    const html = await page(`page=${DISCOVERY_LAST_PAGE}`);
    const text = pageText(html);
    expect(text).toContain(`Page ${DISCOVERY_LAST_PAGE}`);
    expect(cards(text)).toBe(DISCOVERY_PAGE_SIZE);
    expect(nextPage(html)).toBeUndefined();
    expect(text).toContain(
      `${firstShown} To see others, narrow your search: a location, a date, an occasion or a budget.`,
    );
  });

  it("shows the last page for an address beyond it", async () => {
    const text = pageText(await page(`page=${DISCOVERY_LAST_PAGE + 1}`));
    expect(text).toContain(`Page ${DISCOVERY_LAST_PAGE}`);
    expect(cards(text)).toBe(DISCOVERY_PAGE_SIZE);
    expect(text).toContain(firstShown);
  });

  it("says nothing of a limit when the last page holds the last artists found", async () => {
    // Narrowed to exactly the first SHOWN artists: the last page is the end of the list.
    await database.db.execute(sql`
      UPDATE artist_profiles SET location = 'Goa' WHERE slug LIKE 'deep-artist-%'
        AND substring(slug from 13)::int <= ${SHOWN}`);
    const html = await page(`location=Goa&page=${DISCOVERY_LAST_PAGE}`);
    const text = pageText(html);
    expect(cards(text)).toBe(DISCOVERY_PAGE_SIZE);
    expect(text).not.toContain(firstShown);
    expect(nextPage(html)).toBeUndefined();
  });
});
