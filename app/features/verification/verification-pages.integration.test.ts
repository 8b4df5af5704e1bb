import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import {
  agreements,
  artistProfiles,
  bookings,
  musicSessions,
  offers,
  peerVerifications,
  portfolios,
  sessionMedia,
  sessionParticipants,
} from "~db/schema";
import { addArtistProfile, createSession } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { createSharingLink } from "../sharing/sharing.server";

/**
 * The ladder, lineup answers and the client's venue choice as served, with no JavaScript: real
 * form posts, and the HTML every public page sends.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let artist: Awaited<ReturnType<typeof signedInUser>>;
let client: Awaited<ReturnType<typeof signedInUser>>;
let member: Awaited<ReturnType<typeof signedInUser>>;
let stranger: Awaited<ReturnType<typeof signedInUser>>;
let artistId: string;
let slug: string;
let portfolioId: string;
const VENUE = "Secret Garden Rooftop";

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  artist = await signedInUser(app, database.db, "Vera");
  client = await signedInUser(app, database.db, "Cliff");
  member = await signedInUser(app, database.db, "Mina");
  stranger = await signedInUser(app, database.db, "Stan");
  artistId = await addArtistProfile({ db: database.db }, artist.id, {
    name: "Vera Venue",
    location: "Goa",
  });
  await addArtistProfile({ db: database.db }, member.id);
  const [row] = await database.db
    .select({ slug: artistProfiles.slug })
    .from(artistProfiles)
    .where(eq(artistProfiles.id, artistId));
  slug = row!.slug;
  const [portfolio] = await database.db
    .update(portfolios)
    .set({ isPublic: true })
    .where(eq(portfolios.artistProfileId, artistId))
    .returning({ id: portfolios.id });
  portfolioId = portfolio!.id;
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const post = (pathname: string, cookie: string, form: Record<string, string>) =>
  app.request(pathname, {
    method: "POST",
    body: new URLSearchParams(form),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: app.env.appUrl.origin,
      Cookie: cookie,
    },
    redirect: "manual",
  });

const page = async (pathname: string, cookie?: string) => {
  const res = await app.request(pathname, { headers: cookie ? { Cookie: cookie } : {} });
  expect(res.status, pathname).toBe(200);
  return res.text();
};

async function completedBooking(daysAgo: number, venue = VENUE) {
  const [row] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: artistId,
      clientUserId: client.id,
      eventDate: addDays(todayIn("Asia/Kolkata"), -daysAgo),
      durationHours: 2,
      venue,
      eventType: "Private Event",
      totalAmount: 4000,
      status: "completed",
    })
    .returning({ id: bookings.id });
  return row!.id;
}

async function sessionOf(bookingId: string) {
  const [row] = await database.db
    .select({ id: musicSessions.id })
    .from(musicSessions)
    .where(eq(musicSessions.bookingId, bookingId));
  return row!.id;
}

/** A completed gig its client has just rated through the booking page: a Client-verified session. */
async function ratedGig(daysAgo: number, venue: string) {
  const bookingId = await completedBooking(daysAgo, venue);
  const rated = await post(`/bookings/${bookingId}`, client.cookie, {
    intent: "rate",
    rating: "5",
  });
  expect(rated.status).toBe(302);
  return sessionOf(bookingId);
}

describe("rating with the venue checkbox, and choosing later from the booking page", () => {
  it("offers the unticked checkbox, hides the venue from every public page, and lets the client show it", async () => {
    const bookingId = await completedBooking(4);
    const form = await page(`/bookings/${bookingId}`, client.cookie);
    expect(form.replaceAll("<!-- -->", "")).toContain(
      "Show the venue on Vera Venue&#x27;s public history",
    );
    expect(form).not.toMatch(/name="showVenue"[^>]*checked/);

    const rated = await post(`/bookings/${bookingId}`, client.cookie, {
      intent: "rate",
      rating: "5",
    });
    expect(rated.status).toBe(302);
    const sessionId = await sessionOf(bookingId);
    // A featured photo of the gig, so the public portfolio lists the session's title too.
    await database.db.insert(sessionMedia).values({
      sessionId,
      mediaType: "photo",
      filePath: "media/x/1-a.png",
      fileName: "stage.png",
      fileSize: 10,
      mimeType: "image/png",
      isPortfolioFeatured: true,
      portfolioSortOrder: 1,
    });

    for (const pathname of [
      `/artist/${slug}`,
      `/sessions/${sessionId}`,
      `/portfolio/${portfolioId}`,
    ]) {
      const html = await page(pathname);
      expect(html, pathname).not.toContain(VENUE);
      const asStranger = await page(pathname, stranger.cookie);
      expect(asStranger, `${pathname} for another user`).not.toContain(VENUE);
    }
    expect(await page(`/sessions/${sessionId}`)).toContain("Private Event, Goa");
    // The two parties still see it.
    expect(await page(`/sessions/${sessionId}`, artist.cookie)).toContain(VENUE);
    expect(await page(`/sessions/${sessionId}`, client.cookie)).toContain(VENUE);
    expect(await page(`/bookings/${bookingId}`, client.cookie)).toContain(VENUE);

    // Later, from the booking page: a plain form post.
    const strangerTry = await post(`/bookings/${bookingId}`, stranger.cookie, {
      intent: "venue",
      showVenue: "on",
    });
    expect(strangerTry.status).toBe(404);
    const artistTry = await post(`/bookings/${bookingId}`, artist.cookie, {
      intent: "venue",
      showVenue: "on",
    });
    expect(artistTry.status).toBe(409);
    expect(await page(`/sessions/${sessionId}`)).not.toContain(VENUE);
    const shown = await post(`/bookings/${bookingId}`, client.cookie, {
      intent: "venue",
      showVenue: "on",
    });
    expect(shown.status).toBe(302);
    expect(await page(`/sessions/${sessionId}`)).toContain(`Private Event at ${VENUE}`);
    expect(await page(`/artist/${slug}`)).toContain(VENUE);
  });

  it("a gig rated before the choice existed stays hidden until its client chooses", async () => {
    // As migration 0008 leaves one: rated, no choice recorded, the public row without the venue.
    // A venue of its own: the test above checks that its venue is on no public page.
    const venue = "Old Fort Terrace";
    const bookingId = await completedBooking(6, venue);
    await database.db
      .update(bookings)
      .set({ rating: 4, ratingGiven: true, venuePublic: null })
      .where(eq(bookings.id, bookingId));
    const sessionId = await createSession(database.db, artistId, {
      title: "Private Event, Goa",
      location: "Goa",
      venue: null,
      isVerified: true,
      verificationMethod: "client_booking",
      bookingId,
    });
    const bookingPage = await page(`/bookings/${bookingId}`, client.cookie);
    expect(bookingPage).toContain("The client has not chosen yet.");
    expect(await page(`/sessions/${sessionId}`)).not.toContain(venue);
    await post(`/bookings/${bookingId}`, client.cookie, { intent: "venue", showVenue: "on" });
    expect(await page(`/sessions/${sessionId}`)).toContain(`Private Event at ${venue}`);
  });
});

describe("levels and lineup answers on the pages", () => {
  it("shows each level with its explanation and a link to /verification, on the profile and the session page", async () => {
    await ratedGig(8, "Harbour Hall");
    const profile = await page(`/artist/${slug}`);
    expect(profile).toContain("Client-verified");
    expect(profile).toContain("Booked and completed here, and rated by its client.");
    expect(profile).toContain("Verified by the client on");
    expect(profile).toContain('href="/verification"');
    const ladder = await page("/verification");
    expect(ladder).toContain("The five levels, lowest first");
    for (const label of [
      "Self-logged",
      "Peer-confirmed",
      "Client-verified",
      "Lineup-verified",
      "Paid &amp; agreed",
    ])
      expect(ladder).toContain(label);
    expect(ladder).toContain(
      "Agreed and paid here; the payout was released with no problem reported.",
    );
    expect(ladder).toContain("Paid through GigLedger");
  });

  it("shows Paid & agreed once a gig agreed and paid through GigLedger is paid out", async () => {
    const sessionId = await ratedGig(12, "Dock Hall");
    const [{ bookingId } = { bookingId: null }] = await database.db
      .select({ bookingId: musicSessions.bookingId })
      .from(musicSessions)
      .where(eq(musicSessions.id, sessionId));
    const [offer] = await database.db
      .insert(offers)
      .values({
        bookingId: bookingId!,
        version: 1,
        kind: "quote",
        status: "accepted",
        totalPaise: 400_000,
        canonical: "{}",
        sha256: randomBytes(32).toString("hex"),
      })
      .returning({ id: offers.id });
    await database.db.insert(agreements).values({
      bookingId: bookingId!,
      offerId: offer!.id,
      json: "{}",
      sha256: randomBytes(32).toString("hex"),
      paidThrough: "gigledger",
      frozenAt: new Date(Date.now() - 20 * 86_400_000),
    });
    const before = await page(`/sessions/${sessionId}`);
    expect(before).not.toContain("Paid &amp; agreed");
    await database.db
      .update(bookings)
      .set({ payoutReleasedAt: new Date() })
      .where(eq(bookings.id, bookingId!));
    for (const html of [await page(`/sessions/${sessionId}`), await page(`/artist/${slug}`)]) {
      expect(html).toContain("Paid &amp; agreed");
      expect(html).toContain(
        "Agreed and paid here; the payout was released with no problem reported.",
      );
    }
  });

  it("asks a joined collaborator after the end, records the answer from a plain form post", async () => {
    const [memberProfile] = await database.db
      .select({ id: artistProfiles.id })
      .from(artistProfiles)
      .where(eq(artistProfiles.userId, member.id));
    const join = async (sessionId: string) =>
      database.db.insert(sessionParticipants).values({
        sessionId,
        artistProfileId: memberProfile!.id,
        participationType: "collaborator",
        verificationStatus: "verified",
      });
    // Started a minute ago: the question waits for the end, and a post is refused.
    const playing = await createSession(database.db, artistId, {
      title: "Playing jam",
      sessionType: "jam",
      startTime: new Date(Date.now() - 60_000),
    });
    await join(playing);
    expect(await page(`/sessions/${playing}`, member.cookie)).not.toContain("Confirm it happened");
    const early = await post(`/sessions/${playing}`, member.cookie, {
      intent: "lineup",
      answer: "confirmed",
    });
    expect(early.status).toBe(409);
    expect(await page(`/sessions/${playing}?tab=verification`)).not.toContain("Confirmed on");

    const sessionId = await createSession(database.db, artistId, {
      title: "Planned jam",
      sessionType: "jam",
      startTime: new Date(Date.now() - 91 * 60_000),
    });
    await join(sessionId);
    expect(await page(`/sessions/${sessionId}`, member.cookie)).toContain("Confirm it happened");
    expect(await page(`/sessions/${sessionId}`, artist.cookie)).not.toContain(
      "Confirm it happened",
    );
    expect(await page(`/sessions/${sessionId}`)).not.toContain("Confirm it happened");

    const bogus = await post(`/sessions/${sessionId}`, member.cookie, {
      intent: "lineup",
      answer: "maybe",
    });
    expect(bogus.status).toBe(400);
    const outsider = await post(`/sessions/${sessionId}`, stranger.cookie, {
      intent: "lineup",
      answer: "confirmed",
    });
    expect(outsider.status).toBe(404);
    const confirmed = await post(`/sessions/${sessionId}`, member.cookie, {
      intent: "lineup",
      answer: "confirmed",
    });
    expect(confirmed.status).toBe(302);
    // Recorded and shown; but a duo's lone voice, from a new account with no session of its
    // own, lifts nothing.
    const after = await page(`/sessions/${sessionId}?tab=verification`);
    expect(after).toContain("Confirmed on");
    expect(after).toContain('data-level="self_logged"');
    expect(after).toMatch(/Does not count: (<!-- -->)?from an account less than a week old/);
    const again = await post(`/sessions/${sessionId}`, member.cookie, {
      intent: "lineup",
      answer: "declined",
    });
    expect(again.status).toBe(409);
  });

  it("a share link of a session still playing says it is not over, and a verification is refused", async () => {
    const playing = await createSession(database.db, artistId, {
      title: "Still playing",
      startTime: new Date(Date.now() - 60_000),
      durationMinutes: 90,
    });
    const link = await createSharingLink(
      { db: database.db, env: app.env },
      { id: artist.id, roles: ["artist"], artistProfileId: artistId },
      { sessionId: playing, maxUses: null },
    );
    const path = new URL(link.url).pathname;
    const shown = await page(path, member.cookie);
    expect(shown).toContain("Not Over Yet");
    expect(shown).toContain(
      "This session hasn&#x27;t ended yet. You can verify it once it is over.",
    );
    const posted = await post(path, member.cookie, { intent: "verify", trustScore: "100" });
    expect(posted.status).toBe(409);
    const stored = await database.db
      .select({ id: peerVerifications.id })
      .from(peerVerifications)
      .where(eq(peerVerifications.sessionId, playing));
    expect(stored).toEqual([]);
  });

  it("filters discovery by Client-verified gigs from the address", async () => {
    await ratedGig(10, "Beach Shack");
    const html = await page("/artist-discovery?clientVerified=1&location=Goa");
    expect(html).toContain("Vera Venue");
    expect(html).toContain("Client-verified gig");
    expect(await page("/artist-discovery?clientVerified=50&location=Goa")).toContain(
      "No artists found",
    );
    // A value that is not a number is "any", never an error.
    expect(await page("/artist-discovery?clientVerified=%00x&location=Goa")).toContain(
      "Vera Venue",
    );
  });
});
