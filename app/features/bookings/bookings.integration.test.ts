import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedInActor } from "~/lib/actor";
import { systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import { enqueueJob, runDueJobs } from "~/lib/jobs.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { statusOf as httpStatusOf, isProblem } from "~/lib/problem";
import { artistProfiles, availability, bookings, musicSessions, userRoles } from "~db/schema";
import { createArtist, createUser } from "~seed/factories";
import { createTestDatabase, usingServer } from "../../../tests/support/test-database";
import { setAvailability } from "../availability/availability.server";
import { listMessages, sendMessage } from "../messages/messages.server";
import { bookingJobs, SETTLE_BOOKINGS_QUEUE } from "./booking-jobs.server";
import { rateBooking } from "./booking-ratings.server";
import { createBookingRequest } from "./booking-requests.server";
import { getBooking, listArtistBookings, listClientBookings } from "./booking-views.server";
import { BOOKING_REFUSALS } from "./bookings.constants";
import {
  acceptBooking,
  autoCompletePastBookings,
  cancelBooking,
  declineBooking,
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
    clock: systemClock,
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

/** The actor a signed-in user (or artist) is to the domain. */
const as = (user: { id: string }, artistProfileId: string | null = null): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId,
});
const asArtist = (artist: { user: { id: string }; artistId: string }) =>
  as(artist.user, artist.artistId);

/** Refused with a Problem whose code answers with `status`. */
async function expectBookingError(promise: Promise<unknown>, status: number, message?: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isProblem(error)) throw new Error(`expected a Problem, got ${String(error)}`);
  expect(httpStatusOf(error.code)).toBe(status);
  if (message) expect(error.message).toMatch(message);
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
    const artist = await createArtist({ db: database.db }, { hourlyRate: 2500 });
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(
      ctx,
      as(client),
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
    const noRate = await createArtist({ db: database.db }, { hourlyRate: null });
    const second = await createBookingRequest(
      ctx,
      as(client),
      request(noRate.artistId, { durationHours: 3 }),
    );
    const [cheap] = await database.db
      .select({ total: bookings.totalAmount })
      .from(bookings)
      .where(eq(bookings.id, second.id));
    expect(cheap?.total).toBe(450);
  });

  it("refuses booking oneself, a past date, and a booked or unavailable date — and stores nothing", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const before = (await database.db.select({ id: bookings.id }).from(bookings)).length;
    await expectBookingError(
      createBookingRequest(ctx, asArtist(artist), request(artist.artistId)),
      403,
    );
    await expectBookingError(
      createBookingRequest(
        ctx,
        as(client),
        request(artist.artistId, { eventDate: addDays(today, -1) }),
      ),
      400,
    );
    await database.db.insert(availability).values([
      { artistProfileId: artist.artistId, date: addDays(today, 5), status: "booked" },
      { artistProfileId: artist.artistId, date: addDays(today, 6), status: "unavailable" },
    ]);
    await expectBookingError(
      createBookingRequest(
        ctx,
        as(client),
        request(artist.artistId, { eventDate: addDays(today, 5) }),
      ),
      409,
      /^This date is booked\. Please choose an available date\.$/,
    );
    await expectBookingError(
      createBookingRequest(
        ctx,
        as(client),
        request(artist.artistId, { eventDate: addDays(today, 6) }),
      ),
      409,
      /^This date is unavailable\. Please choose an available date\.$/,
    );
    expect((await database.db.select({ id: bookings.id }).from(bookings)).length).toBe(before);
  });
});

describe("responding to a request", () => {
  it("lets only the artist accept, only while pending, and marks the date booked", async () => {
    const artist = await createArtist({ db: database.db });
    const other = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const stranger = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, as(client), request(artist.artistId));
    for (const who of [as(client), asArtist(other), as(stranger)]) {
      await expectBookingError(acceptBooking(ctx, who, id), who.id === client.id ? 409 : 404);
      await expectBookingError(declineBooking(ctx, who, id), who.id === client.id ? 409 : 404);
    }
    expect(await statusOf(id)).toBe("pending");
    await acceptBooking(ctx, asArtist(artist), id);
    expect(await statusOf(id)).toBe("confirmed");
    const [day] = await database.db
      .select({ status: availability.status })
      .from(availability)
      .where(eq(availability.artistProfileId, artist.artistId));
    expect(day?.status).toBe("booked");
    await expectBookingError(acceptBooking(ctx, asArtist(artist), id), 409);
    await expectBookingError(declineBooking(ctx, asArtist(artist), id), 409);
  });

  it("declines pending → rejected, nothing else", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, as(client), request(artist.artistId));
    await declineBooking(ctx, asArtist(artist), id);
    expect(await statusOf(id)).toBe("rejected");
    await expectBookingError(acceptBooking(ctx, asArtist(artist), id), 409);
  });

  it("accepts exactly one of two requests for the same date, also when both are accepted at once", async () => {
    const artist = await createArtist({ db: database.db });
    const clients = await Promise.all([
      createUser(database.db),
      createUser(database.db),
      createUser(database.db),
    ]);
    const date = addDays(today, 20);
    const ids = [];
    for (const c of clients)
      ids.push(
        (await createBookingRequest(ctx, as(c), request(artist.artistId, { eventDate: date }))).id,
      );
    const results = await Promise.allSettled(
      ids.map((id) => acceptBooking(ctx, asArtist(artist), id)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "conflict" });
    const statuses = await Promise.all(ids.map(statusOf));
    expect(statuses.filter((s) => s === "confirmed")).toHaveLength(1);
    expect(statuses.filter((s) => s === "pending")).toHaveLength(2);
    if (usingServer()) expect(results).toHaveLength(3); // the concurrent case ran on a real server
  });

  it("lets the client cancel a pending or confirmed booking before its date, freeing a booked date", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, as(client), request(artist.artistId));
    await acceptBooking(ctx, asArtist(artist), id);
    // The artist may cancel a confirmed booking only with a reason (see trust.integration.test.ts).
    await expectBookingError(cancelBooking(ctx, asArtist(artist), id), 400);
    expect(await statusOf(id)).toBe("confirmed");
    await cancelBooking(ctx, as(client), id);
    expect(await statusOf(id)).toBe("cancelled");
    const [day] = await database.db
      .select({ status: availability.status })
      .from(availability)
      .where(eq(availability.artistProfileId, artist.artistId));
    expect(day?.status).toBe("available");
    await expectBookingError(cancelBooking(ctx, as(client), id), 409);
  });
});

describe("reading", () => {
  it("shows a booking and its messages only to its two parties", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const otherClient = await createUser(database.db);
    const otherArtist = await createArtist({ db: database.db });
    const { id } = await createBookingRequest(ctx, as(client), request(artist.artistId));
    const booking = await getBooking(ctx, as(client), id);
    expect(booking).not.toBeNull();
    expect(await getBooking(ctx, asArtist(artist), id)).not.toBeNull();
    expect(await getBooking(ctx, as(otherClient), id)).toBeNull();
    expect(await getBooking(ctx, asArtist(otherArtist), id)).toBeNull();
    expect(await getBooking(ctx, null, id)).toBeNull();
    expect((await listClientBookings(ctx, as(otherClient))).map((b) => b.id)).not.toContain(id);
    expect((await listArtistBookings(ctx, asArtist(otherArtist))).map((b) => b.id)).not.toContain(
      id,
    );
    await expectBookingError(
      sendMessage(ctx, as(otherClient), { bookingId: id, message: "hello?" }),
      404,
    );
    await expectBookingError(
      sendMessage(ctx, asArtist(otherArtist), { bookingId: id, message: "hello?" }),
      404,
    );
    if (!booking) throw new Error("the client reads their booking");
    expect(await listMessages(ctx, as(client), { booking })).toEqual([]);
    // An outsider handed the booking object still reads nothing.
    await sendMessage(ctx, as(client), { bookingId: id, message: "Only for us" });
    expect(await listMessages(ctx, as(otherClient), { booking })).toEqual([]);
  });

  it("delivers messages in order to the topic, and replays what came after a given message", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, as(client), request(artist.artistId));
    const first = await sendMessage(ctx, asArtist(artist), { bookingId: id, message: "First" });
    await sendMessage(ctx, as(client), { bookingId: id, message: "Second" });
    await sendMessage(ctx, asArtist(artist), { bookingId: id, message: "Third" });
    const booking = await getBooking(ctx, as(client), id);
    if (!booking) throw new Error("the client reads their booking");
    expect((await listMessages(ctx, as(client), { booking })).map((m) => m.message)).toEqual([
      "First",
      "Second",
      "Third",
    ]);
    expect(
      (await listMessages(ctx, as(client), { booking, after: first.id })).map((m) => m.message),
    ).toEqual(["Second", "Third"]);
    expect(published.filter((p) => p.topic === `booking:${id}`)).toHaveLength(3);
    // One mail per party: "Third" came within 15 minutes of the client's unread "First" mail.
    const messageMails = sent.filter((m) => m.subject.startsWith("New message from"));
    expect(messageMails.filter((m) => m.to === client.email)).toHaveLength(1);
    expect(messageMails.filter((m) => m.to === artist.user.email)).toHaveLength(1);
    expect(messageMails.find((m) => m.to === client.email)?.text).toContain("First");
  });
});

describe("auto-complete and rating", () => {
  it("completes past confirmed bookings, cancels past pending ones, and is idempotent", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const a = await createBookingRequest(
      ctx,
      as(client),
      request(artist.artistId, { eventDate: addDays(today, 30) }),
    );
    const b = await createBookingRequest(
      ctx,
      as(client),
      request(artist.artistId, { eventDate: addDays(today, 31) }),
    );
    await acceptBooking(ctx, asArtist(artist), a.id);
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
    const artist = await createArtist({ db: database.db }, { hourlyRate: 1000 });
    const client = await createUser(database.db);
    const ids: string[] = [];
    for (const day of [40, 41]) {
      const { id } = await createBookingRequest(
        ctx,
        as(client),
        request(artist.artistId, { eventDate: addDays(today, day), startTime: "19:30" }),
      );
      await acceptBooking(ctx, asArtist(artist), id);
      ids.push(id);
    }
    const [first, second] = ids as [string, string];
    const rate = (
      who: SignedInActor,
      bookingId: string,
      rating: number,
      review: string | null,
      showVenue = false,
    ) => rateBooking(ctx, who, { bookingId, rating, review, showVenue });
    await expectBookingError(rate(as(client), first, 5, null), 409); // not completed yet
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(today, -3) })
      .where(eq(bookings.id, first));
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(today, -4) })
      .where(eq(bookings.id, second));
    await autoCompletePastBookings(database.db, today);
    await expectBookingError(rate(asArtist(artist), first, 5, null), 409); // a party, not the client
    await expectBookingError(rate(as(await createUser(database.db)), first, 5, null), 404);
    await rate(as(client), first, 5, "Great", true);
    await expectBookingError(rate(as(client), first, 1, null), 409);
    await rate(as(client), second, 4, null);
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

describe("past bookings: reads show them settled, the job writes it down once", () => {
  /** A pending and a confirmed booking of a new artist, both moved to a past date. */
  async function pastPair() {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const pending = await createBookingRequest(
      ctx,
      as(client),
      request(artist.artistId, { eventDate: addDays(today, 50) }),
    );
    const confirmed = await createBookingRequest(
      ctx,
      as(client),
      request(artist.artistId, { eventDate: addDays(today, 51) }),
    );
    await acceptBooking(ctx, asArtist(artist), confirmed.id);
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(today, -1) })
      .where(eq(bookings.id, pending.id));
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(today, -2) })
      .where(eq(bookings.id, confirmed.id));
    return { artist, client, pending: pending.id, confirmed: confirmed.id };
  }

  const stored = async () =>
    database.db
      .select({ id: bookings.id, status: bookings.status, updatedAt: bookings.updatedAt })
      .from(bookings)
      .orderBy(bookings.id);

  it("a read shows a past confirmed booking as completed and a past pending one as cancelled, and writes nothing", async () => {
    const { artist, client, pending, confirmed } = await pastPair();
    const before = await stored();
    const asClient = await listClientBookings(ctx, as(client));
    const asOwner = await listArtistBookings(ctx, asArtist(artist));
    const one = await getBooking(ctx, as(client), confirmed);
    for (const list of [asClient, asOwner]) {
      expect(list.find((b) => b.id === confirmed)?.status).toBe("completed");
      expect(list.find((b) => b.id === pending)?.status).toBe("cancelled");
    }
    expect(one).toMatchObject({ status: "completed", beforeEventDay: false });
    // Nothing changed in the table: not a status, not a timestamp.
    expect(await stored()).toEqual(before);
    expect(await statusOf(confirmed)).toBe("confirmed");
    expect(await statusOf(pending)).toBe("pending");
  });

  it("settling, run twice at once, settles each booking exactly once", async () => {
    await autoCompletePastBookings(database.db, today); // what earlier tests left behind
    const pairs = [await pastPair(), await pastPair()];
    const runs = await Promise.all(
      [1, 2].map(() => database.db.transaction((tx) => autoCompletePastBookings(tx, today))),
    );
    expect(runs.reduce((n, r) => n + r.completed, 0)).toBe(2);
    expect(runs.reduce((n, r) => n + r.cancelled, 0)).toBe(2);
    for (const pair of pairs) {
      expect(await statusOf(pair.confirmed)).toBe("completed");
      expect(await statusOf(pair.pending)).toBe("cancelled");
    }
    expect(await autoCompletePastBookings(database.db, today)).toEqual({
      completed: 0,
      cancelled: 0,
    });
  });

  it("the scheduled job settles past bookings", async () => {
    const pair = await pastPair();
    await enqueueJob(database.db, { queue: SETTLE_BOOKINGS_QUEUE, key: "scheduled" });
    await runDueJobs(database.db, bookingJobs(ctx));
    expect(await statusOf(pair.confirmed)).toBe("completed");
    expect(await statusOf(pair.pending)).toBe("cancelled");
  });

  it("lets the client rate a past confirmed booking before the job has run", async () => {
    const { artist, client, confirmed } = await pastPair();
    await rateBooking(ctx, as(client), { bookingId: confirmed, rating: 4, review: null });
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, confirmed));
    expect(row).toMatchObject({ status: "completed", rating: 4, ratingGiven: true });
    const [profile] = await database.db
      .select({ reviews: artistProfiles.totalReviews })
      .from(artistProfiles)
      .where(eq(artistProfiles.id, artist.artistId));
    expect(profile?.reviews).toBe(1);
    await expectBookingError(
      rateBooking(ctx, as(client), { bookingId: confirmed, rating: 5, review: null }),
      409,
    );
  });

  it("no longer accepts, declines or cancels a booking whose date has passed, before the job ran", async () => {
    const { artist, client, pending, confirmed } = await pastPair();
    await expectBookingError(acceptBooking(ctx, asArtist(artist), pending), 409);
    await expectBookingError(declineBooking(ctx, asArtist(artist), pending), 409);
    await expectBookingError(cancelBooking(ctx, as(client), pending), 409);
    await expectBookingError(cancelBooking(ctx, as(client), confirmed), 409);
    expect(await statusOf(pending)).toBe("pending");
    expect(await statusOf(confirmed)).toBe("confirmed");
  });
});

describe("accepting a date the artist has since marked unavailable", () => {
  it("is refused with a clear message and changes nothing; once the date is available again it works", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const date = addDays(today, 60);
    const { id } = await createBookingRequest(
      ctx,
      as(client),
      request(artist.artistId, { eventDate: date }),
    );
    await setAvailability(ctx, asArtist(artist), { date, status: "unavailable", notes: null });
    const refused = await acceptBooking(ctx, asArtist(artist), id).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({
      code: "conflict",
      reason: BOOKING_REFUSALS.dateMarkedUnavailable,
    });
    expect((refused as Error).message).toMatch(/marked .* as unavailable/);
    expect(await statusOf(id)).toBe("pending");
    const dayStatus = async () =>
      (
        await database.db
          .select({ status: availability.status })
          .from(availability)
          .where(eq(availability.artistProfileId, artist.artistId))
      )[0]?.status;
    expect(await dayStatus()).toBe("unavailable");
    await setAvailability(ctx, asArtist(artist), { date, status: "available", notes: null });
    await acceptBooking(ctx, asArtist(artist), id);
    expect(await statusOf(id)).toBe("confirmed");
    expect(await dayStatus()).toBe("booked");
  });
});
