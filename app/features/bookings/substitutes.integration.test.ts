import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { describe, expect, it, onTestFinished } from "vitest";
import type { SignedInActor } from "~/lib/actor";
import { type Clock, systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { availability, bookings, peerVerifications, sessionParticipants } from "~db/schema";
import {
  addArtistProfile,
  artistActor,
  createArtist,
  createSession,
  createUser,
} from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { rateBooking } from "./booking-ratings.server";
import { createBookingRequest } from "./booking-requests.server";
import { getBooking } from "./booking-views.server";
import { acceptBooking, cancelBooking } from "./bookings.server";
import { listSubstitutes, relatedGenreWords, substituteSearchHref } from "./substitutes.server";

/**
 * Who a client is offered after an artist cancels (docs/product.md, "Bookings", Substitutes): every
 * artist free that day who shares a signal with the cancelling one, ranked by the signals, instead
 * of only those with the exact same genre and city. Each test has a database of its own: every
 * artist in it is a candidate for every cancelled booking.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const sent: Mail[] = [];
const mailer: Mailer = { send: async (m) => void sent.push(m), outbox: async () => [] };
let ctx: Parameters<typeof createBookingRequest>[0];
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-substitutes-test"),
  BETTER_AUTH_SECRET: "x".repeat(40),
});
const today = todayIn(env.timeZone);

/** A database of its own for the test that calls it, gone when the test ends. */
async function openDatabase() {
  database = await createTestDatabase();
  onTestFinished(() => database.dispose());
  ctx = { db: database.db, env, logger: pino({ level: "silent" }), mailer, clock: systemClock };
  sent.length = 0;
}

const as = (user: { id: string }): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId: null,
});

type Candidate = {
  name: string;
  city: string;
  genre: string;
  /** Verified sessions played with the cancelling artist. */
  together?: number;
  /** Completed bookings here, rated by their clients with `rating` stars. */
  gigs?: number;
  rating?: number;
  /** Not free on the date: 'unavailable' mark, or a confirmed booking there. */
  busy?: "marked" | "booked";
};

/** A completed booking of the artist's, rated through the rating flow (a client-verified gig). */
async function ratedGig(artistId: string, stars: number, daysAgo: number) {
  const client = await createUser(database.db);
  const [row] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: artistId,
      clientUserId: client.id,
      eventDate: addDays(today, -daysAgo),
      durationHours: 2,
      venue: "Old Hall",
      eventType: "Live Show",
      status: "completed",
      totalAmount: 300,
    })
    .returning({ id: bookings.id });
  await rateBooking(ctx, as(client), { bookingId: row?.id ?? "", rating: stars, review: null });
}

/** A verified session the two played: the cancelling artist's or the other's, in turn. */
async function playedTogether(cancelling: string, other: string, n: number) {
  for (let i = 0; i < n; i++) {
    const [owner, guest] = i % 2 === 0 ? [cancelling, other] : [other, cancelling];
    const sessionId = await createSession(database.db, owner, {
      isVerified: true,
      verificationMethod: "peer",
    });
    if (i % 3 === 2) {
      await database.db
        .insert(peerVerifications)
        .values({ sessionId, verifiedByArtistId: guest, trustScore: 100 });
    } else {
      await database.db.insert(sessionParticipants).values({
        sessionId,
        artistProfileId: guest,
        participationType: "collaborator",
        verificationStatus: "verified",
      });
    }
  }
}

/**
 * A cancelling artist, the candidates around them, and a booking the artist confirmed and then
 * cancelled: what the client is offered and what the mail said.
 */
async function scene(city: string, genre: string, candidates: Candidate[]) {
  await openDatabase();
  const cancelling = await createArtist({ db: database.db }, { location: city, genre });
  const client = await createUser(database.db, { firstName: "Lena" });
  const eventDate = addDays(today, 30);
  const ids = new Map<string, string>();
  for (const c of candidates) {
    const artist = await createArtist(
      { db: database.db },
      { name: c.name, location: c.city, genre: c.genre },
    );
    ids.set(artist.artistId, c.name);
    await playedTogether(cancelling.artistId, artist.artistId, c.together ?? 0);
    for (let g = 0; g < (c.gigs ?? 0); g++) await ratedGig(artist.artistId, c.rating ?? 5, 30 + g);
    if (c.busy === "marked") {
      await database.db
        .insert(availability)
        .values({ artistProfileId: artist.artistId, date: eventDate, status: "unavailable" });
    }
    if (c.busy === "booked") {
      const other = await createUser(database.db);
      const request = await createBookingRequest(ctx, as(other), {
        artistId: artist.artistId,
        eventDate,
        startTime: null,
        durationHours: 2,
        venue: "Elsewhere",
        eventType: "Wedding",
        message: null,
      });
      await acceptBooking(ctx, artistActor(artist), request.id);
    }
  }
  // The client also has an artist profile of their own, in the same city and genre.
  await addArtistProfile({ db: database.db }, client.id, {
    name: `Lena ${client.id.slice(0, 6)}`,
    location: city,
    genre,
  });
  const { id } = await createBookingRequest(ctx, as(client), {
    artistId: cancelling.artistId,
    eventDate,
    startTime: "20:00",
    durationHours: 3,
    venue: "Harbour Club",
    eventType: "Live Show",
    message: null,
  });
  await acceptBooking(ctx, artistActor(cancelling), id);
  sent.length = 0;
  await cancelBooking(ctx, artistActor(cancelling), { bookingId: id, reason: "Flu." });
  const booking = await getBooking(ctx, as(client), id);
  if (!booking) throw new Error("booking gone");
  const offered = await listSubstitutes(ctx, as(client), booking);
  return {
    names: (offered ?? []).map((s) => ids.get(s.id) ?? `someone else (${s.artistName})`),
    offered,
    booking,
    mail: sent.find((m) => m.subject.includes("cancelled the booking")),
    asArtist: artistActor(cancelling),
  };
}

describe("substitutes after an artist cancels", () => {
  it("are ranked by the signals: same city, played together, genre, client-verified gigs, rating", async () => {
    const city = "Austin TX";
    // name, city, genre, signals → where it lands (1–6 offered; 'cut' after six; 'out' never).
    const table: (Candidate & { expect: number | "cut" | "out" })[] = [
      { name: "Local partner", city, genre: "Rock", together: 2, expect: 1 },
      { name: "Local jazz friend", city, genre: "Jazz", together: 1, expect: 2 },
      { name: "Local jazz, 3 gigs", city, genre: "Jazz", gigs: 3, rating: 4, expect: 3 },
      { name: "Local jazz, top rated", city, genre: "jazz ", gigs: 1, rating: 5, expect: 4 },
      { name: "Local blues", city, genre: "Blues", gigs: 5, rating: 5, expect: 5 },
      { name: "Local classical", city, genre: "Classical", expect: 6 },
      { name: "Faraway partner", city: "Elsewhere", genre: "Rock", together: 3, expect: "cut" },
      { name: "Faraway jazz", city: "Elsewhere", genre: "Jazz", expect: "cut" },
      { name: "Faraway country", city: "Elsewhere", genre: "Country", expect: "out" },
      {
        name: "Local, marked busy",
        city,
        genre: "Jazz",
        together: 3,
        busy: "marked",
        expect: "out",
      },
      { name: "Local, booked", city, genre: "Jazz", gigs: 2, busy: "booked", expect: "out" },
    ];
    const { names, offered, booking, mail, asArtist } = await scene(city, "Jazz", table);
    const ranked = table
      .filter((c) => typeof c.expect === "number")
      .sort((a, b) => Number(a.expect) - Number(b.expect))
      .map((c) => c.name);
    expect(names).toEqual(ranked);
    // What each shows: the reasons it was suggested.
    expect(offered?.[0]).toMatchObject({ sameCity: true, sessionsTogether: 2, genreMatch: null });
    expect(offered?.[2]).toMatchObject({ genreMatch: "same", clientVerifiedGigs: 3, rating: 4 });
    expect(offered?.[4]).toMatchObject({ genreMatch: "similar", clientVerifiedGigs: 5 });
    // The mail promises what the page shows: suggestions and a search for the day.
    expect(mail?.text).toContain("The booking page suggests artists who are free on ");
    expect(substituteSearchHref(booking)).toBe(`/artist-discovery?date=${booking.eventDate}`);
    // Only the client is offered them.
    expect(await listSubstitutes(ctx, asArtist, booking)).toBeNull();
  });

  it("beyond the city: played together first, then the same genre, then a similar one", async () => {
    const city = "Tromsø";
    const table: (Candidate & { expect: number | "out" })[] = [
      { name: "Similar, many gigs", city: "Oslo", genre: "Soul", gigs: 4, rating: 5, expect: 3 },
      { name: "Same genre", city: "Bergen", genre: "Jazz", expect: 2 },
      { name: "Played together", city: "Oslo", genre: "Metal", together: 1, expect: 1 },
      { name: "Unrelated", city: "Oslo", genre: "Opera", expect: "out" },
    ];
    const { names } = await scene(city, "Jazz", table);
    expect(names).toEqual(["Played together", "Same genre", "Similar, many gigs"]);
  });

  it("may be nobody: the page still offers the search, and the mail promises only that", async () => {
    const { offered, mail } = await scene("Nowhere", "Zydeco", [
      { name: "Elsewhere, unrelated", city: "Far", genre: "Opera" },
    ]);
    expect(offered).toEqual([]);
    expect(mail?.text).toContain("The booking page has a search for every artist free on ");
    expect(mail?.text).not.toContain("suggests");
  });
});

describe("similar genres", () => {
  it.each([
    ["Jazz", "blues", true],
    ["Jazz fusion", "soul", true],
    ["Hip-Hop", "rap", true],
    ["Bollywood", "pop", true],
    ["Classical", "opera", true],
    ["Jazz", "country", false],
    ["Zydeco", "jazz", false],
  ] as const)("%s and %s: %s", (genre, other, similar) => {
    expect(relatedGenreWords(genre).includes(other)).toBe(similar);
  });
});
