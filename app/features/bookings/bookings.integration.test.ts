import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { artistProfiles, availability, bookings, musicSessions, userRoles } from "~db/schema";
import { createArtist, createUser } from "../../../tests/support/factories";
import { createTestDatabase, usingServer } from "../../../tests/support/test-database";
import { listMessages, sendMessage } from "../messages/messages.server";
import {
  acceptBooking,
  autoCompletePastBookings,
  BookingError,
  cancelBooking,
  createBookingRequest,
  declineBooking,
  getBookingForUser,
  listArtistBookings,
  listClientBookings,
  rateBooking,
} from "./bookings.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const sent: Mail[] = [];
const mailer: Mailer = { send: async (m) => void sent.push(m), outbox: async () => [] };
const published: { topic: string; data: unknown }[] = [];
let ctx: Parameters<typeof createBookingRequest>[0] & Parameters<typeof sendMessage>[0];
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-bookings-test"),
  BETTER_AUTH_SECRET: "x".repeat(40),
});
const today = todayIn(env.timeZone);

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = {
    db: database.db,
    env,
    logger: pino({ level: "silent" }),
    mailer,
    realtime: {
      publish: async (topic, data) => void published.push({ topic, data }),
      subscribe: () => () => {},
      close: async () => {},
    },
  };
});
afterAll(async () => {
  await database?.dispose();
});

const request = (
  artistId: string,
  overrides: Partial<Parameters<typeof createBookingRequest>[2]> = {},
) => ({
  artistId,
  eventDate: addDays(today, 10),
  startTime: null,
  durationHours: 2.5,
  venue: "Town Hall",
  eventType: "Wedding" as const,
  message: null,
  ...overrides,
});

async function expectBookingError(promise: Promise<unknown>, status: number, message?: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BookingError);
  expect((error as BookingError).status).toBe(status);
  if (message) expect((error as BookingError).message).toMatch(message);
}

async function statusOf(id: string) {
  const [row] = await database.db
    .select({ status: bookings.status })
    .from(bookings)
    .where(eq(bookings.id, id));
  return row?.status;
}

describe("booking requests", () => {
  it("computes the amount on the server, makes the user a client, and mails the artist", async () => {
    const artist = await createArtist(database.db, { hourlyRate: 2500 });
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(
      ctx,
      client,
      request(artist.artistId, { durationHours: 2.5 }),
    );
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, id));
    expect(row).toMatchObject({ status: "pending", totalAmount: 6250, clientUserId: client.id });
    const roles = await database.db
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.userId, client.id));
    expect(roles).toEqual([{ role: "client" }]);
    expect(sent.at(-1)?.to).toBe(artist.user.email);
    const noRate = await createArtist(database.db, { hourlyRate: null });
    const second = await createBookingRequest(
      ctx,
      client,
      request(noRate.artistId, { durationHours: 3 }),
    );
    const [cheap] = await database.db
      .select({ total: bookings.totalAmount })
      .from(bookings)
      .where(eq(bookings.id, second.id));
    expect(cheap?.total).toBe(450);
  });

  it("refuses booking oneself, a past date, and a booked or unavailable date — and stores nothing", async () => {
    const artist = await createArtist(database.db);
    const client = await createUser(database.db);
    const before = (await database.db.select({ id: bookings.id }).from(bookings)).length;
    await expectBookingError(createBookingRequest(ctx, artist.user, request(artist.artistId)), 403);
    await expectBookingError(
      createBookingRequest(
        ctx,
        client,
        request(artist.artistId, { eventDate: addDays(today, -1) }),
      ),
      400,
    );
    await database.db.insert(availability).values([
      { artistProfileId: artist.artistId, date: addDays(today, 5), status: "booked" },
      { artistProfileId: artist.artistId, date: addDays(today, 6), status: "unavailable" },
    ]);
    await expectBookingError(
      createBookingRequest(ctx, client, request(artist.artistId, { eventDate: addDays(today, 5) })),
      409,
      /^This date is booked\. Please choose an available date\.$/,
    );
    await expectBookingError(
      createBookingRequest(ctx, client, request(artist.artistId, { eventDate: addDays(today, 6) })),
      409,
      /^This date is unavailable\. Please choose an available date\.$/,
    );
    expect((await database.db.select({ id: bookings.id }).from(bookings)).length).toBe(before);
  });
});

describe("responding to a request", () => {
  it("lets only the artist accept, only while pending, and marks the date booked", async () => {
    const artist = await createArtist(database.db);
    const other = await createArtist(database.db);
    const client = await createUser(database.db);
    const stranger = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, client, request(artist.artistId));
    for (const who of [client.id, other.user.id, stranger.id]) {
      await expectBookingError(acceptBooking(ctx, who, id), who === client.id ? 409 : 404);
      await expectBookingError(declineBooking(ctx, who, id), who === client.id ? 409 : 404);
    }
    expect(await statusOf(id)).toBe("pending");
    await acceptBooking(ctx, artist.user.id, id);
    expect(await statusOf(id)).toBe("confirmed");
    const [day] = await database.db
      .select({ status: availability.status })
      .from(availability)
      .where(eq(availability.artistProfileId, artist.artistId));
    expect(day?.status).toBe("booked");
    await expectBookingError(acceptBooking(ctx, artist.user.id, id), 409);
    await expectBookingError(declineBooking(ctx, artist.user.id, id), 409);
  });

  it("declines pending → rejected, nothing else", async () => {
    const artist = await createArtist(database.db);
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, client, request(artist.artistId));
    await declineBooking(ctx, artist.user.id, id);
    expect(await statusOf(id)).toBe("rejected");
    await expectBookingError(acceptBooking(ctx, artist.user.id, id), 409);
  });

  it("accepts exactly one of two requests for the same date, also when both are accepted at once", async () => {
    const artist = await createArtist(database.db);
    const clients = await Promise.all([
      createUser(database.db),
      createUser(database.db),
      createUser(database.db),
    ]);
    const date = addDays(today, 20);
    const ids = [];
    for (const c of clients)
      ids.push(
        (await createBookingRequest(ctx, c, request(artist.artistId, { eventDate: date }))).id,
      );
    const results = await Promise.allSettled(
      ids.map((id) => acceptBooking(ctx, artist.user.id, id)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected") expect(r.reason).toBeInstanceOf(BookingError);
    const statuses = await Promise.all(ids.map(statusOf));
    expect(statuses.filter((s) => s === "confirmed")).toHaveLength(1);
    expect(statuses.filter((s) => s === "pending")).toHaveLength(2);
    if (usingServer()) expect(results).toHaveLength(3); // the concurrent case ran on a real server
  });

  it("lets the client cancel a pending or confirmed booking before its date, freeing a booked date", async () => {
    const artist = await createArtist(database.db);
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, client, request(artist.artistId));
    await acceptBooking(ctx, artist.user.id, id);
    await expectBookingError(cancelBooking(ctx, artist.user.id, id), 409);
    await cancelBooking(ctx, client.id, id);
    expect(await statusOf(id)).toBe("cancelled");
    const [day] = await database.db
      .select({ status: availability.status })
      .from(availability)
      .where(eq(availability.artistProfileId, artist.artistId));
    expect(day?.status).toBe("available");
    await expectBookingError(cancelBooking(ctx, client.id, id), 409);
  });
});

describe("reading", () => {
  it("shows a booking and its messages only to its two parties", async () => {
    const artist = await createArtist(database.db);
    const client = await createUser(database.db);
    const otherClient = await createUser(database.db);
    const otherArtist = await createArtist(database.db);
    const { id } = await createBookingRequest(ctx, client, request(artist.artistId));
    expect(await getBookingForUser(ctx, id, client.id)).not.toBeNull();
    expect(await getBookingForUser(ctx, id, artist.user.id)).not.toBeNull();
    expect(await getBookingForUser(ctx, id, otherClient.id)).toBeNull();
    expect(await getBookingForUser(ctx, id, otherArtist.user.id)).toBeNull();
    expect((await listClientBookings(ctx, otherClient.id)).map((b) => b.id)).not.toContain(id);
    expect((await listArtistBookings(ctx, otherArtist.artistId)).map((b) => b.id)).not.toContain(
      id,
    );
    await expectBookingError(sendMessage(ctx, otherClient, id, "hello?"), 404);
    await expectBookingError(sendMessage(ctx, otherArtist.user, id, "hello?"), 404);
    expect(await listMessages(ctx, id)).toEqual([]);
  });

  it("delivers messages in order to the topic, and replays what came after a given message", async () => {
    const artist = await createArtist(database.db);
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, client, request(artist.artistId));
    const first = await sendMessage(ctx, artist.user, id, "First");
    await sendMessage(ctx, client, id, "Second");
    await sendMessage(ctx, artist.user, id, "Third");
    expect((await listMessages(ctx, id)).map((m) => m.message)).toEqual([
      "First",
      "Second",
      "Third",
    ]);
    expect((await listMessages(ctx, id, first.id)).map((m) => m.message)).toEqual([
      "Second",
      "Third",
    ]);
    expect(published.filter((p) => p.topic === `booking:${id}`)).toHaveLength(3);
    expect(sent.at(-1)?.to).toBe(client.email);
  });
});

describe("auto-complete and rating", () => {
  it("completes past confirmed bookings, cancels past pending ones, and is idempotent", async () => {
    const artist = await createArtist(database.db);
    const client = await createUser(database.db);
    const a = await createBookingRequest(
      ctx,
      client,
      request(artist.artistId, { eventDate: addDays(today, 30) }),
    );
    const b = await createBookingRequest(
      ctx,
      client,
      request(artist.artistId, { eventDate: addDays(today, 31) }),
    );
    await acceptBooking(ctx, artist.user.id, a.id);
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(today, -2) })
      .where(eq(bookings.artistProfileId, artist.artistId));
    await autoCompletePastBookings(database.db, today);
    expect(await statusOf(a.id)).toBe("completed");
    expect(await statusOf(b.id)).toBe("cancelled");
    const again = await autoCompletePastBookings(database.db, today);
    expect(again).toEqual({ completed: 0, cancelled: 0 });
    expect(await statusOf(a.id)).toBe("completed");
  });

  it("lets only the client rate, once, when completed; recomputes the rating and logs a verified gig", async () => {
    const artist = await createArtist(database.db, { hourlyRate: 1000 });
    const client = await createUser(database.db);
    const ids: string[] = [];
    for (const day of [40, 41]) {
      const { id } = await createBookingRequest(
        ctx,
        client,
        request(artist.artistId, { eventDate: addDays(today, day), startTime: "19:30" }),
      );
      await acceptBooking(ctx, artist.user.id, id);
      ids.push(id);
    }
    const [first, second] = ids as [string, string];
    await expectBookingError(rateBooking(ctx, client.id, first, 5, null), 409); // not completed yet
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(today, -3) })
      .where(eq(bookings.id, first));
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(today, -4) })
      .where(eq(bookings.id, second));
    await autoCompletePastBookings(database.db, today);
    await expectBookingError(rateBooking(ctx, artist.user.id, first, 5, null), 409); // a party, not the client
    await expectBookingError(
      rateBooking(ctx, (await createUser(database.db)).id, first, 5, null),
      404,
    );
    await rateBooking(ctx, client.id, first, 5, "Great");
    await expectBookingError(rateBooking(ctx, client.id, first, 1, null), 409);
    await rateBooking(ctx, client.id, second, 4, null);
    const [profile] = await database.db
      .select({
        rating: artistProfiles.rating,
        reviews: artistProfiles.totalReviews,
        verified: artistProfiles.verifiedSessions,
        minutes: artistProfiles.totalMinutes,
      })
      .from(artistProfiles)
      .where(eq(artistProfiles.id, artist.artistId));
    expect(profile).toEqual({ rating: 4.5, reviews: 2, verified: 2, minutes: 300 });
    const sessions = await database.db
      .select({
        title: musicSessions.title,
        method: musicSessions.verificationMethod,
        verified: musicSessions.isVerified,
        start: musicSessions.startTime,
      })
      .from(musicSessions)
      .where(eq(musicSessions.bookingId, first));
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      title: "Wedding at Town Hall",
      method: "client_booking",
      verified: true,
    });
    // 19:30 in Asia/Kolkata is 14:00 UTC.
    expect(sessions[0]?.start.toISOString()).toBe(`${addDays(today, -3)}T14:00:00.000Z`);
  });
});
