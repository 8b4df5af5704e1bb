import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMonths, formatMonth, monthOf, todayIn } from "~/lib/dates";
import { artistProfiles, availability, bookings } from "~db/schema";
import {
  addArtistProfile,
  artistActor,
  createArtist,
  createSession,
  createUser,
} from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { pageText } from "../../../tests/support/page-text";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { createSharingLink, joinSessionAsCollaborator } from "../sharing/sharing.server";

/**
 * The public profile and the dashboard as served (no JavaScript runs here): the hourly rate, the
 * written reviews, the calendar's month and tab as links the loader reads, the dashboard's words,
 * and the footer's year.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let artist: Awaited<ReturnType<typeof createArtist>>;
let slug: string;
const zone = "Asia/Kolkata";

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  artist = await createArtist(
    { db: database.db },
    { name: "Maya Reviewed", hourlyRate: 4500, user: { firstName: "Maya" } },
  );
  const [row] = await database.db
    .update(artistProfiles)
    .set({ timeZone: zone })
    .where(eq(artistProfiles.id, artist.artistId))
    .returning({ slug: artistProfiles.slug });
  slug = row!.slug;
  const asha = await createUser(database.db, { firstName: "Asha" });
  const booking = {
    artistProfileId: artist.artistId,
    durationHours: 2,
    venue: "Hall",
    eventType: "Wedding" as const,
    totalAmount: 9000,
    status: "completed" as const,
    ratingGiven: true,
  };
  await database.db.insert(bookings).values([
    {
      ...booking,
      clientUserId: asha.id,
      eventDate: "2026-03-14",
      rating: 5,
      review: "Wonderful evening, guests loved it.",
    },
    {
      ...booking,
      clientUserId: null,
      eventDate: "2026-01-10",
      rating: 4,
      review: "Great set, arrived on time.",
    },
  ]);
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const page = async (path: string, cookie?: string) => {
  const res = await app.request(path, cookie ? { headers: { Cookie: cookie } } : undefined);
  expect(res.status).toBe(200);
  return res.text();
};

describe("the public profile", () => {
  it("shows the hourly rate in rupees and the review texts, newest first, with who and when", async () => {
    const text = pageText(await page(`/artist/${slug}`));
    expect(text).toContain("₹4,500.00 per hour");
    const newest = text.indexOf("Wonderful evening, guests loved it.");
    const older = text.indexOf("Great set, arrived on time.");
    expect(newest).toBeGreaterThan(-1);
    expect(older).toBeGreaterThan(newest);
    expect(text).toContain("Asha · March 14, 2026");
    // A client whose account is gone.
    expect(text).toContain("A client · January 10, 2026");
  });

  it("turns the calendar's months with links the page reads (?month=), never before this month", async () => {
    const current = monthOf(todayIn(zone));
    const next = addMonths(current, 1);
    const html = await page(`/artist/${slug}`);
    expect(html).toContain(`href="?month=${next}#book"`);
    expect(pageText(html)).toContain(formatMonth(current));

    const later = await page(`/artist/${slug}?month=${next}`);
    expect(pageText(later)).toContain(formatMonth(next));
    expect(later).toContain(`href="?month=${addMonths(next, 1)}#book"`);
    expect(later).toContain(`href="?month=${current}#book"`);

    // An earlier month, or nonsense, shows the current one.
    for (const asked of [addMonths(current, -2), "2026-13", "soon"]) {
      const text = pageText(await page(`/artist/${slug}?month=${asked}`));
      expect(text).toContain(formatMonth(current));
    }
  });

  it("has the calendar's tabs as links, and shows the tab the address names", async () => {
    const html = await page(`/artist/${slug}`);
    expect(html).toMatch(/<a[^>]*role="tab"[^>]*href="\?view=upcoming#book"/);
    const upcoming = await page(`/artist/${slug}?view=upcoming`);
    // The Upcoming Events panel is the one shown, the calendar's is hidden.
    expect(upcoming).toMatch(/<a[^>]*role="tab"[^>]*aria-selected="true"[^>]*>Upcoming Events/);
    expect(upcoming).toMatch(/role="tabpanel"[^>]*hidden=""[^>]*>[\s\S]*?role="grid"/);
  });

  it("shows this year in the footer", async () => {
    const text = pageText(await page(`/artist/${slug}`));
    expect(text).toContain(`© ${new Date().getFullYear()} GigLedger. All rights reserved.`);
  });
});

describe("the dashboard", () => {
  it("welcomes a new artist, then welcomes them back once their profile has something on it", async () => {
    const maya = await signedInUser(app, database.db, "Maya");
    const artistId = await addArtistProfile({ db: database.db }, maya.id, { name: "Maya New" });
    const first = pageText(await page("/artist-dashboard", maya.cookie));
    expect(first).toContain("Welcome, Maya New!");
    expect(first).not.toContain("Welcome back");

    await database.db
      .insert(availability)
      .values({ artistProfileId: artistId, date: todayIn(zone), status: "available" });
    expect(pageText(await page("/artist-dashboard", maya.cookie))).toContain(
      "Welcome back, Maya New!",
    );

    const ravi = await signedInUser(app, database.db, "Ravi");
    const raviId = await addArtistProfile({ db: database.db }, ravi.id, { name: "Ravi Logged" });
    await createSession(database.db, raviId);
    expect(pageText(await page("/artist-dashboard", ravi.cookie))).toContain(
      "Welcome back, Ravi Logged!",
    );
  });

  it("says what is known of an artist too new for the figures, on the profile and the card", async () => {
    const text = pageText(await page(`/artist/${slug}`));
    expect(text).toMatch(/New on GigLedger · (no verified sessions yet|\d+ verified sessions?)/);
    const cards = pageText(await page("/artist-discovery"));
    expect(cards).toMatch(/New on GigLedger · /);
    // The price on every card: the hourly rate, or that the artist quotes.
    expect(cards).toContain("₹4,500.00 per hour");
  });

  it("shows 'New' for an artist without ratings and no pending requests without warning colours", async () => {
    const nia = await signedInUser(app, database.db, "Nia");
    await addArtistProfile({ db: database.db }, nia.id, { name: "Nia Unrated" });
    const html = await page("/artist-dashboard", nia.cookie);
    expect(pageText(html)).toMatch(/Rating New 0 reviews/);
    const line = /<p class="([^"]*)">No pending booking requests<\/p>/.exec(html);
    expect(line?.[1]).toBeDefined();
    expect(line?.[1]).not.toMatch(/orange|amber|red|yellow/);
  });

  it("counts the sessions a collaborator joined as its Sessions tab lists them, with no empty state", async () => {
    const leo = await signedInUser(app, database.db, "Leo");
    const leoId = await addArtistProfile({ db: database.db }, leo.id, { name: "Leo Joins" });
    const joiner = { id: leo.id, roles: ["artist" as const], artistProfileId: leoId };
    const ctx = { db: database.db, env: { appUrl: new URL("http://localhost") } };
    const soon = new Date(Date.now() + 7 * 24 * 3_600_000);
    // Two other artists' planned sessions, joined through their share links; one verified since.
    for (const [title, minutes, isVerified] of [
      ["Harbour jam with Leo", 90, false],
      ["Studio take with Leo", 120, true],
    ] as const) {
      const owner = await createArtist({ db: database.db }, { name: `Owner of ${title}` });
      const sessionId = await createSession(database.db, owner.artistId, {
        title,
        durationMinutes: minutes,
        startTime: soon,
        isVerified,
      });
      const { url } = await createSharingLink(ctx, artistActor(owner), { sessionId, maxUses: 1 });
      const token = new URL(url).pathname.split("/").pop() as string;
      await joinSessionAsCollaborator(ctx, joiner, { token, notes: null });
    }

    const sessionsTab = pageText(await page("/artist-dashboard?tab=sessions", leo.cookie));
    expect(sessionsTab).toContain("Harbour jam with Leo");
    expect(sessionsTab).toContain("Studio take with Leo");
    expect(sessionsTab).not.toContain("No sessions logged yet");

    const dashboard = pageText(await page("/artist-dashboard", leo.cookie));
    expect(dashboard).toContain("Welcome back, Leo Joins!");
    expect(dashboard).toMatch(/Sessions 2 0 logged · 2 joined Verified 1 Hours 3\.5/);
    expect(dashboard).toContain("2 sessions (0 logged · 2 joined), 1 verified");
    expect(dashboard).not.toContain("No sessions yet");
    expect(dashboard).not.toMatch(/Sessions 0/);
  });
});
