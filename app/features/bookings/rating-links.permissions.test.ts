import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { bookings } from "~db/schema";
import { createArtist, createUser } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { ratingLinkUrl } from "./rating-links.server";

// Who may do what with /rate/{token} (docs/product.md, "Ratings"; decision 044): the link rates
// its own booking, as its client, once, while it is completed and unrated; anything else is
// refused in plain words and changes nothing.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let artistCookie: string;
let artistId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  const artist = await signedInUser(app, database.db, "Tara");
  artistCookie = artist.cookie;
  artistId = (await createArtist({ db: database.db }, { user: { id: artist.id } })).artistId;
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

let days = 0;
async function booking(values: Partial<typeof bookings.$inferInsert> = {}) {
  // One confirmed booking per artist and date: each on a day of its own.
  days++;
  const client = await createUser(database.db, { firstName: "Dev" });
  const [row] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: artistId,
      clientUserId: client.id,
      eventDate: addDays(todayIn("Asia/Kolkata"), -2 - days),
      durationHours: 1,
      venue: "Courtyard",
      eventType: "Private Event",
      totalAmount: 150,
      status: "confirmed",
      ...values,
    })
    .returning({ id: bookings.id });
  if (!row) throw new Error("no booking");
  const link = new URL(ratingLinkUrl(app, { id: row.id, clientUserId: client.id })).pathname;
  return { id: row.id, clientId: client.id, link };
}

const unchanged = async (id: string) => {
  const [row] = await database.db
    .select({ status: bookings.status, ratingGiven: bookings.ratingGiven, rating: bookings.rating })
    .from(bookings)
    .where(eq(bookings.id, id));
  return row;
};

const rate = (link: string, fields: Record<string, string> = { rating: "4" }, cookie?: string) =>
  postForm(app, link, { intent: "rate", ...fields }, cookie);

describe("a link is good for its own booking only", () => {
  it.each([
    [
      "another booking's id with this link's signature",
      (l: string, other: string) => l.replace(/[0-9a-f-]{36}/, other),
    ],
    ["a changed signature", (l: string) => `${l.slice(0, -1)}${l.endsWith("A") ? "B" : "A"}`],
    [
      "a later expiry with the old signature",
      (l: string) =>
        l.replace(
          /\.([0-9a-z]+)\./,
          (_m, e: string) => `.${(Number.parseInt(e, 36) + 86400).toString(36)}.`,
        ),
    ],
    ["no signature", (l: string) => l.slice(0, l.lastIndexOf("."))],
    ["rubbish", () => "/rate/not-a-token"],
    ["an id-shaped rubbish", () => `/rate/${"-".repeat(36)}.abc.${"A".repeat(43)}`],
    ["a very long token", () => `/rate/${"a".repeat(5000)}`],
  ])("%s: 404 'Invalid Link', and a POST changes nothing", async (_label, forge) => {
    const mine = await booking();
    const other = await booking();
    const forged = forge(mine.link, other.id);
    const page = await app.request(forged);
    expect(page.status).toBe(404);
    expect(await page.text()).toContain("This rating link is not valid.");
    expect((await rate(forged)).status).toBe(404);
    expect(await unchanged(mine.id)).toEqual({
      status: "confirmed",
      ratingGiven: false,
      rating: null,
    });
    expect(await unchanged(other.id)).toEqual({
      status: "confirmed",
      ratingGiven: false,
      rating: null,
    });
  });

  it("a link signed with another secret is invalid", async () => {
    const mine = await booking();
    const foreign = ratingLinkUrl(
      { env: { ...app.env, authSecret: "another-secret".padEnd(40, "y") } },
      { id: mine.id, clientUserId: mine.clientId },
    );
    expect((await app.request(new URL(foreign).pathname)).status).toBe(404);
  });
});

describe("only a completed, unrated booking of a client who still exists", () => {
  it.each([
    ["not yet happened", { eventDate: addDays(todayIn("Asia/Kolkata"), 5) }],
    ["declined", { status: "rejected" as const }],
    ["cancelled", { status: "cancelled" as const }],
    ["still pending when its day passed", { status: "pending" as const }],
  ])("%s: 404, and a POST is refused and changes nothing", async (_label, values) => {
    const b = await booking(values);
    const before = await unchanged(b.id);
    expect((await app.request(b.link)).status).toBe(404);
    expect((await rate(b.link)).status).toBeGreaterThanOrEqual(400);
    expect(await unchanged(b.id)).toEqual(before);
  });

  it("a client who deleted their account: the link is invalid", async () => {
    const b = await booking();
    await database.db.update(bookings).set({ clientUserId: null }).where(eq(bookings.id, b.id));
    expect((await app.request(b.link)).status).toBe(404);
    expect((await rate(b.link)).status).toBe(404);
  });

  it("rates as the booking's client whoever is signed in (the link is the client's), and once", async () => {
    const b = await booking();
    const res = await rate(b.link, { rating: "3" }, artistCookie);
    expect(res.status).toBe(302);
    expect(await unchanged(b.id)).toEqual({ status: "completed", ratingGiven: true, rating: 3 });
    const again = await rate(b.link, { rating: "5" });
    expect(again.status).toBe(409);
    expect(await unchanged(b.id)).toMatchObject({ rating: 3 });
  });
});

describe("hostile bodies are refused where they enter", () => {
  it.each([
    ["no stars", {}],
    ["six stars", { rating: "6" }],
    ["words for stars", { rating: "five" }],
    ["a NUL byte in the review", { rating: "4", review: "good\u0000bad" }],
    ["a review over 2000 characters", { rating: "4", review: "x".repeat(2001) }],
  ])("%s: 400 and nothing changes", async (_label, fields) => {
    const b = await booking();
    expect((await rate(b.link, fields as Record<string, string>)).status).toBe(400);
    expect(await unchanged(b.id)).toEqual({
      status: "confirmed",
      ratingGiven: false,
      rating: null,
    });
  });

  it("a body that is not a form is refused", async () => {
    const b = await booking();
    const res = await app.request(b.link, {
      method: "POST",
      body: '{"rating":5}',
      headers: { "Content-Type": "application/json", Origin: app.env.appUrl.origin },
    });
    expect([400, 415]).toContain(res.status);
    expect(await unchanged(b.id)).toMatchObject({ ratingGiven: false });
  });
});
