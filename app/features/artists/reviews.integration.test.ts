import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookings } from "~db/schema";
import { createArtist, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { listArtistReviews } from "./reviews.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

type Booking = typeof bookings.$inferInsert;

async function booking(artistId: string, clientUserId: string | null, values: Partial<Booking>) {
  await database.db.insert(bookings).values({
    artistProfileId: artistId,
    clientUserId,
    eventDate: "2026-10-01",
    durationHours: 2,
    venue: "Hall",
    eventType: "Wedding",
    totalAmount: 300,
    status: "completed",
    ...values,
  });
}

const rated = (rating: number, review: string | null, eventDate: string) => ({
  rating,
  review,
  ratingGiven: true,
  eventDate,
});

describe("listArtistReviews", () => {
  it("lists the written reviews of rated bookings, newest gig first, with the client's first name", async () => {
    const artist = await createArtist({ db: database.db });
    const other = await createArtist({ db: database.db });
    const asha = await createUser(database.db, { firstName: "Asha", lastName: "Rao" });
    const nameless = await createUser(database.db, { firstName: "  ", lastName: "X" });

    await booking(artist.artistId, asha.id, rated(5, "  Wonderful evening.  ", "2026-09-01"));
    await booking(artist.artistId, asha.id, rated(4, "Great set.", "2026-10-05"));
    // A deleted client's account leaves the booking without a client.
    await booking(artist.artistId, null, rated(3, "Fine.", "2026-08-01"));
    await booking(artist.artistId, nameless.id, rated(2, "Late start.", "2026-07-01"));
    // Not shown: a rating without words, an empty review, an unrated booking, another artist's.
    await booking(artist.artistId, asha.id, rated(5, null, "2026-10-10"));
    await booking(artist.artistId, asha.id, rated(5, "   ", "2026-10-11"));
    await booking(artist.artistId, asha.id, { status: "confirmed", eventDate: "2026-10-12" });
    await booking(other.artistId, asha.id, rated(1, "Someone else's.", "2026-10-13"));

    const reviews = await listArtistReviews(database, null, { artistId: artist.artistId });
    expect(reviews.map(({ id: _id, ...r }) => r)).toEqual([
      { rating: 4, review: "Great set.", clientFirstName: "Asha", eventDate: "2026-10-05" },
      { rating: 5, review: "Wonderful evening.", clientFirstName: "Asha", eventDate: "2026-09-01" },
      { rating: 3, review: "Fine.", clientFirstName: null, eventDate: "2026-08-01" },
      { rating: 2, review: "Late start.", clientFirstName: null, eventDate: "2026-07-01" },
    ]);
    // The same for everyone, signed in or not.
    const signedIn = { id: asha.id, roles: ["client" as const], artistProfileId: null };
    expect(await listArtistReviews(database, signedIn, { artistId: artist.artistId })).toEqual(
      reviews,
    );
  });

  it("shows at most the asked number, and nothing for an id that is not one", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db, { firstName: "Ravi" });
    for (const day of ["01", "02", "03"])
      await booking(artist.artistId, client.id, rated(5, `Gig ${day}`, `2026-06-${day}`));
    const two = await listArtistReviews(database, null, { artistId: artist.artistId, limit: 2 });
    expect(two.map((r) => r.review)).toEqual(["Gig 03", "Gig 02"]);
    expect(await listArtistReviews(database, null, { artistId: "not-a-uuid" })).toEqual([]);
  });
});
