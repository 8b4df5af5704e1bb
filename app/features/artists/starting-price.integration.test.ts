import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artistProfiles } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { pageText } from "../../../tests/support/page-text";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { BOTH_PRICES_MESSAGE } from "./artists.server";

/**
 * An artist who quotes each booking gives a starting price (decision 064): the card reads
 * "From ₹…", the profile too; an hourly rate and a starting price together are refused, as is
 * anything but an amount above ₹0, and nothing changes then. Through HTTP, as the edit form posts.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let artistId: string;
let slug: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  owner = await signedInUser(app, database.db, "Kabir");
  artistId = await addArtistProfile({ db: database.db }, owner.id, { name: "Kabir Quotes" });
  const [row] = await database.db
    .select({ slug: artistProfiles.slug })
    .from(artistProfiles)
    .where(eq(artistProfiles.id, artistId));
  slug = row!.slug;
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const fields = (prices: { hourlyRate: string; startingPrice: string }) => ({
  artistName: "Kabir Quotes",
  genre: "Classical",
  bio: "Sitar for weddings and concerts.",
  location: "Mumbai",
  experience: "12 years",
  instruments: "Sitar",
  isAvailable: "on",
  depositBps: "3000",
  balanceDueDays: "7",
  cancellationPolicy: "moderate",
  ...prices,
});

const save = (prices: { hourlyRate: string; startingPrice: string }) =>
  postForm(app, "/artist-profile/edit", fields(prices), owner.cookie);

const prices = async () => {
  const [row] = await database.db
    .select({ hourlyRate: artistProfiles.hourlyRate, startingPrice: artistProfiles.startingPrice })
    .from(artistProfiles)
    .where(eq(artistProfiles.id, artistId));
  return row;
};

const textOf = async (path: string) => {
  const res = await app.request(path);
  expect(res.status).toBe(200);
  return pageText(await res.text());
};

describe("a starting price", () => {
  it("shows as 'From ₹…' on the card and the profile, and goes when cleared", async () => {
    const saved = await save({ hourlyRate: "", startingPrice: "18000" });
    expect(saved.status).toBe(302);
    expect(await prices()).toEqual({ hourlyRate: null, startingPrice: 18000 });
    const card = await textOf("/artist-discovery?q=Kabir");
    expect(card).toContain("Kabir Quotes");
    expect(card).toContain("From ₹18,000.00");
    expect(card).not.toContain("Quotes each booking");
    expect(await textOf(`/artist/${slug}`)).toContain("From ₹18,000.00");
    // The edit form shows what is stored.
    const form = await app.request("/artist-profile/edit", { headers: { Cookie: owner.cookie } });
    expect(await form.text()).toMatch(/name="startingPrice"[^>]*value="18000"/);

    expect((await save({ hourlyRate: "", startingPrice: "" })).status).toBe(302);
    expect(await prices()).toEqual({ hourlyRate: null, startingPrice: null });
    expect(await textOf("/artist-discovery?q=Kabir")).toContain("Quotes each booking");
  });

  it("is refused beside an hourly rate, and for anything but an amount above ₹0", async () => {
    await save({ hourlyRate: "", startingPrice: "12000" });
    const cases: [{ hourlyRate: string; startingPrice: string }, string][] = [
      [{ hourlyRate: "2500", startingPrice: "12000" }, BOTH_PRICES_MESSAGE],
      [{ hourlyRate: "", startingPrice: "0" }, "Starting price must be ₹1 or more"],
      [{ hourlyRate: "", startingPrice: "-40" }, "Starting price must be ₹1 or more"],
      [{ hourlyRate: "", startingPrice: "lots" }, "Starting price must be a number"],
      [{ hourlyRate: "", startingPrice: "100.005" }, "Use at most two decimals"],
      [{ hourlyRate: "", startingPrice: "99999999999" }, "Starting price is too large"],
    ];
    for (const [given, message] of cases) {
      const res = await save(given);
      expect(res.status, JSON.stringify(given)).toBe(400);
      expect(await res.text()).toContain(message.replace("'", "&#x27;"));
      expect(await prices()).toEqual({ hourlyRate: null, startingPrice: 12000 });
    }
  });

  it("cannot sit beside an hourly rate in the database either", async () => {
    expect((await save({ hourlyRate: "", startingPrice: "12000" })).status).toBe(302);
    expect(await prices()).toEqual({ hourlyRate: null, startingPrice: 12000 });
    await expect(
      database.db
        .update(artistProfiles)
        .set({ hourlyRate: 2500 })
        .where(eq(artistProfiles.id, artistId)),
    ).rejects.toThrow();
    await expect(
      database.db.execute(
        sql`UPDATE artist_profiles SET hourly_rate = NULL, starting_price = 0 WHERE id = ${artistId}`,
      ),
    ).rejects.toThrow();
    expect(await prices()).toEqual({ hourlyRate: null, startingPrice: 12000 });
  });
});
