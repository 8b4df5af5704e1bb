import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { availability, bookingMessages, bookings, users } from "~db/schema";
import { artistActor, createArtist, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { getBooking } from "../bookings/booking-views.server";
import { bookingPrefillOf } from "../bookings/bookings.schema";
import { cancelBooking } from "../bookings/bookings.server";
import { listSubstitutes, substituteBookingHref } from "../bookings/substitutes.server";
import { cancellationText, responseRateText, responseTimeText } from "./trust";
import { getClientRecord, getTrustFigures, listTrustReceipts } from "./trust.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const sent: Mail[] = [];
const mailer: Mailer = { send: async (m) => void sent.push(m), outbox: async () => [] };
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-trust-test"),
  BETTER_AUTH_SECRET: "x".repeat(40),
});
let ctx: Parameters<typeof cancelBooking>[0];

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = {
    db: database.db,
    env,
    logger: pino({ level: "silent" }),
    mailer,
    clock: systemClock,
  };
});
afterAll(async () => {
  await database?.dispose();
});

const HOUR = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR);
const today = () => todayIn(env.timeZone);

let nextDay = 30;
/** A client of their own for a request (one client's requests of a day count as one). */
const newClient = async () => (await createUser(database.db, { firstName: "Client" })).id;
/** A booking row with the times given (hours ago), as the booking flow would have left it. */
async function booking(
  artistId: string,
  clientUserId: string,
  row: {
    receivedHoursAgo: number;
    respondedAfterHours?: number;
    status?: "pending" | "confirmed" | "rejected" | "completed" | "cancelled";
    confirmedHoursAgo?: number;
    cancelledBy?: "client" | "artist";
    cancelledAfterHours?: number;
    eventDate?: string;
  },
) {
  const created = ago(row.receivedHoursAgo);
  const at = (after?: number) =>
    after === undefined ? null : new Date(created.getTime() + after * HOUR);
  const [inserted] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: artistId,
      clientUserId,
      eventDate: row.eventDate ?? addDays(today(), nextDay++),
      durationHours: 2,
      venue: "Town Hall",
      eventType: "Wedding",
      status: row.status ?? "pending",
      totalAmount: 4000,
      createdAt: created,
      respondedAt: at(row.respondedAfterHours),
      confirmedAt: row.confirmedHoursAgo === undefined ? null : ago(row.confirmedHoursAgo),
      cancelledBy: row.cancelledBy ?? null,
      cancelledAt: at(row.cancelledAfterHours),
    })
    .returning({ id: bookings.id });
  if (!inserted) throw new Error("no booking");
  return inserted.id;
}

describe("response rate and typical response time", () => {
  it("count the requests of 90 days answered within 24 h, by accept, decline or a message", async () => {
    const artist = await createArtist({ db: database.db });
    // Each request from a client of its own (one client's requests of a day count as one);
    // `client` sends the late one and writes in it.
    const client = await createUser(database.db, { firstName: "Client" });
    // Answered within a day: accepted after 1 h, declined after 3 h, a message after 5 h.
    await booking(artist.artistId, await newClient(), {
      receivedHoursAgo: 200,
      respondedAfterHours: 1,
      status: "confirmed",
      confirmedHoursAgo: 199,
    });
    await booking(artist.artistId, await newClient(), {
      receivedHoursAgo: 150,
      respondedAfterHours: 3,
      status: "rejected",
    });
    const messaged = await booking(artist.artistId, await newClient(), { receivedHoursAgo: 100 });
    await database.db.insert(bookingMessages).values({
      bookingId: messaged,
      senderUserId: artist.user.id,
      message: "Hello! Which songs would you like?",
      createdAt: ago(95),
    });
    // The client's own message is not an answer; the artist answered after 30 h: a miss.
    const late = await booking(artist.artistId, client.id, {
      receivedHoursAgo: 80,
      respondedAfterHours: 30,
      status: "confirmed",
      confirmedHoursAgo: 50,
    });
    await database.db.insert(bookingMessages).values({
      bookingId: late,
      senderUserId: client.id,
      message: "Any news?",
      createdAt: ago(79),
    });
    // Unanswered for 48 h: a miss.
    await booking(artist.artistId, await newClient(), { receivedHoursAgo: 48 });
    // Not counted: still inside its first day, withdrawn by the client within a day before an
    // answer, and older than 90 days.
    await booking(artist.artistId, await newClient(), { receivedHoursAgo: 2 });
    await booking(artist.artistId, await newClient(), {
      receivedHoursAgo: 60,
      status: "cancelled",
      cancelledBy: "client",
      cancelledAfterHours: 4,
    });
    await booking(artist.artistId, await newClient(), {
      receivedHoursAgo: 91 * 24,
      respondedAfterHours: 1,
      status: "rejected",
    });

    const figures = (await getTrustFigures(ctx, null, [artist.artistId]))[artist.artistId];
    expect(figures?.response).toEqual({
      counted: 5,
      answeredWithinWindow: 3,
      // First answers after 1, 3, 5 and 30 hours: the median is 4 hours.
      medianMinutes: 240,
    });
    expect(figures && responseRateText(figures.response)).toBe(
      "Responds within 24 h to 60% of requests (5 in 90 days)",
    );
    expect(figures && responseTimeText(figures.response)).toBe("Typically responds in 4 h");

    // The receipts add up to the figure, each with its times.
    const receipts = await listTrustReceipts(ctx, artistActor(artist));
    expect(receipts?.requests).toHaveLength(5);
    expect(receipts?.requests.filter((r) => r.withinWindow)).toHaveLength(3);
    expect(receipts?.requests.filter((r) => r.firstAnswerAt === null)).toHaveLength(1);
  });

  it("are hidden below five counted requests, and an artist with no bookings has zeros", async () => {
    const artist = await createArtist({ db: database.db });
    for (const hours of [30, 40, 50, 60]) {
      await booking(artist.artistId, await newClient(), { receivedHoursAgo: hours });
    }
    const quiet = await createArtist({ db: database.db });
    const figures = await getTrustFigures(ctx, null, [artist.artistId, quiet.artistId, "nope"]);
    expect(figures[artist.artistId]?.response.counted).toBe(4);
    expect(responseRateText(figures[artist.artistId]?.response ?? never())).toBeNull();
    expect(figures[quiet.artistId]).toEqual({
      response: { counted: 0, answeredWithinWindow: 0, medianMinutes: null },
      cancellations: { confirmed: 0, cancelled: 0 },
    });
    expect(Object.keys(figures)).toHaveLength(2);
  });
});

function never(): never {
  throw new Error("missing");
}

describe("cancellations", () => {
  it("count the bookings the artist cancelled of those confirmed in 12 months", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db, { firstName: "Client" });
    for (const hours of [10, 20, 30, 40]) {
      await booking(artist.artistId, client.id, {
        receivedHoursAgo: hours + 5,
        respondedAfterHours: 1,
        status: "confirmed",
        confirmedHoursAgo: hours,
      });
    }
    await booking(artist.artistId, client.id, {
      receivedHoursAgo: 70,
      respondedAfterHours: 1,
      status: "cancelled",
      confirmedHoursAgo: 69,
      cancelledBy: "artist",
      cancelledAfterHours: 10,
    });
    // A client's cancellation does not count against the artist; a year-old one is out.
    await booking(artist.artistId, client.id, {
      receivedHoursAgo: 90,
      respondedAfterHours: 1,
      status: "cancelled",
      confirmedHoursAgo: 89,
      cancelledBy: "client",
      cancelledAfterHours: 5,
    });
    await booking(artist.artistId, client.id, {
      receivedHoursAgo: 400 * 24,
      status: "cancelled",
      confirmedHoursAgo: 399 * 24,
      cancelledBy: "artist",
      cancelledAfterHours: 30,
    });
    const figures = (await getTrustFigures(ctx, null, [artist.artistId]))[artist.artistId];
    expect(figures?.cancellations).toEqual({ confirmed: 6, cancelled: 1 });
    expect(figures && cancellationText(figures.cancellations)).toBe(
      "Cancelled 1 of 6 confirmed bookings in 12 months",
    );
    const receipts = await listTrustReceipts(ctx, artistActor(artist));
    expect(receipts?.confirmed).toHaveLength(6);
    expect(receipts?.confirmed.filter((c) => c.cancelledAt)).toHaveLength(1);
  });

  it("are the artist's own: nobody else gets the receipts", async () => {
    const client = await createUser(database.db, { firstName: "Client" });
    expect(await listTrustReceipts(ctx, null)).toBeNull();
    expect(
      await listTrustReceipts(ctx, { id: client.id, roles: [], artistProfileId: null }),
    ).toBeNull();
  });
});

describe("a client's record, for the artist reading their request", () => {
  it("counts completed bookings and the client's cancellations, for an artist they asked", async () => {
    const artist = await createArtist({ db: database.db });
    const other = await createArtist({ db: database.db });
    const client = await createUser(database.db, { firstName: "Client" });
    await booking(other.artistId, client.id, {
      receivedHoursAgo: 500,
      status: "completed",
      confirmedHoursAgo: 499,
      eventDate: addDays(today(), -5),
    });
    await booking(other.artistId, client.id, {
      receivedHoursAgo: 300,
      status: "cancelled",
      cancelledBy: "client",
      cancelledAfterHours: 40,
    });
    await booking(artist.artistId, client.id, { receivedHoursAgo: 3 });
    expect(await getClientRecord(ctx, artistActor(artist), { clientUserId: client.id })).toEqual({
      completedBookings: 1,
      cancelledBookings: 1,
      ratings: { count: 0, average: null, latest: [] },
    });
    // An artist the client never asked learns nothing.
    const stranger = await createArtist({ db: database.db });
    expect(
      await getClientRecord(ctx, artistActor(stranger), { clientUserId: client.id }),
    ).toBeNull();
  });
});

describe("an artist cancels a confirmed booking", () => {
  it("needs a reason, frees the date, mails the client and offers free substitutes", async () => {
    const genre = `Fado ${Date.now()}`;
    const place = "Lisbon";
    const artist = await createArtist({ db: database.db }, { genre, location: place });
    const free = await createArtist({ db: database.db }, { genre, location: place });
    const busy = await createArtist({ db: database.db }, { genre, location: place });
    const elsewhere = await createArtist({ db: database.db }, { genre, location: "Porto" });
    const client = await createUser(database.db, { firstName: "Maria" });
    const eventDate = addDays(today(), 20);
    const id = await booking(artist.artistId, client.id, {
      receivedHoursAgo: 30,
      respondedAfterHours: 1,
      status: "confirmed",
      confirmedHoursAgo: 29,
      eventDate,
    });
    await database.db.insert(availability).values([
      { artistProfileId: artist.artistId, date: eventDate, status: "booked" },
      { artistProfileId: busy.artistId, date: eventDate, status: "unavailable" },
    ]);
    const asClient = { id: client.id, roles: [], artistProfileId: null };

    // Without a reason nothing changes.
    await expect(
      cancelBooking(ctx, artistActor(artist), { bookingId: id, reason: "  " }),
    ).rejects.toMatchObject({ code: "invalid" });
    await expect(
      cancelBooking(ctx, artistActor(artist), { bookingId: id, reason: "x".repeat(501) }),
    ).rejects.toMatchObject({ code: "invalid" });
    expect((await getBooking(ctx, asClient, id))?.status).toBe("confirmed");
    // Nobody but its artist cancels it as the artist; a stranger is told it does not exist.
    await expect(
      cancelBooking(ctx, artistActor(free), { bookingId: id, reason: "Mine now" }),
    ).rejects.toMatchObject({ code: "not_found" });

    sent.length = 0;
    await cancelBooking(ctx, artistActor(artist), {
      bookingId: id,
      reason: "I broke my wrist and can't play.",
    });
    const after = await getBooking(ctx, asClient, id);
    expect(after).toMatchObject({
      status: "cancelled",
      cancelledBy: "artist",
      cancelReason: "I broke my wrist and can't play.",
    });
    const [clientRow] = await database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, client.id));
    const mail = sent.find((m) => m.to === clientRow?.email);
    expect(mail?.subject).toContain("cancelled the booking");
    expect(mail?.text).toContain("I broke my wrist and can't play.");
    const [day] = await database.db
      .select({ status: availability.status })
      .from(availability)
      .where(
        and(eq(availability.artistProfileId, artist.artistId), eq(availability.date, eventDate)),
      );
    expect(day?.status).toBe("available");
    const figures = (await getTrustFigures(ctx, null, [artist.artistId]))[artist.artistId];
    expect(figures?.cancellations).toEqual({ confirmed: 1, cancelled: 1 });

    // The client is offered who is free that day: the same city first, then the same genre
    // elsewhere (the ranking itself: substitutes.integration.test.ts).
    if (!after) throw new Error("booking gone");
    const substitutes = (await listSubstitutes(ctx, asClient, after)) ?? [];
    expect(substitutes.map((s) => s.id)).toEqual([free.artistId, elsewhere.artistId]);
    expect(substitutes.map((s) => s.id)).not.toContain(busy.artistId);
    expect(mail?.text).toContain("The booking page suggests artists who are free on ");
    const href = substituteBookingHref(substitutes[0]?.slug ?? "", after);
    expect(href).toContain(`date=${eventDate}`);
    expect(href).toContain("venue=Town+Hall");
    expect(href).toContain("eventType=Wedding");
    // The same terms come along in the request's details, and the form takes them.
    const prefill = bookingPrefillOf(new URL(href, "http://x").searchParams);
    expect(prefill.message).toContain("on the same terms:");
    expect(prefill.message).toContain("hours (Wedding)");
    // Only the client sees them.
    expect(await listSubstitutes(ctx, artistActor(artist), after)).toBeNull();
  });
});
