import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedInActor } from "~/lib/actor";
import { systemClock } from "~/lib/clock.server";
import { addDays, todayIn, wallClockIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { artistProfiles, bookingMessageReads, bookings } from "~db/schema";
import { createArtist, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { markMessagesRead, sendMessage } from "../messages/messages.server";
import { createBookingRequest } from "./booking-requests.server";
import { artistTodayFor, getBooking, listClientBookings } from "./booking-views.server";
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
let ctx: Parameters<typeof createBookingRequest>[0] & Parameters<typeof sendMessage>[0];
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-booking-rules-test"),
  BETTER_AUTH_SECRET: "x".repeat(40),
});

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = {
    db: database.db,
    env,
    logger: pino({ level: "silent" }),
    mailer,
    clock: systemClock,
    realtime: { publish: async () => {}, subscribe: () => () => {}, close: async () => {} },
  };
});
afterAll(async () => {
  await database?.dispose();
});

const as = (user: { id: string }, artistProfileId: string | null = null): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId,
});
const asArtist = (artist: { user: { id: string }; artistId: string }) =>
  as(artist.user, artist.artistId);

const request = (
  artistId: string,
  overrides: Partial<Parameters<typeof createBookingRequest>[2]> = {},
) => ({
  artistId,
  eventDate: addDays(todayIn(env.timeZone), 10),
  startTime: null,
  durationHours: 2,
  venue: "Town Hall",
  eventType: "Wedding" as const,
  message: null,
  ...overrides,
});

/** An artist whose profile is in `timeZone`. */
async function artistIn(timeZone: string) {
  const artist = await createArtist({ db: database.db });
  await database.db
    .update(artistProfiles)
    .set({ timeZone })
    .where(eq(artistProfiles.id, artist.artistId));
  return artist;
}

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => e,
  );
}

// UTC+14 and UTC−11: 25 hours apart, so at any moment their dates differ, and the app's zone
// (Asia/Kolkata, UTC+5:30) shares its date with at most one of them.
const EAST = "Pacific/Kiritimati";
const WEST = "Pacific/Pago_Pago";

describe("today is the artist's today", () => {
  it("takes a request for the artist's today and refuses the artist's yesterday, whatever the app's date", async () => {
    const client = await createUser(database.db);
    for (const zone of [EAST, WEST]) {
      const artist = await artistIn(zone);
      const today = todayIn(zone);
      expect(await artistTodayFor(ctx, as(client), artist.artistId)).toBe(today);
      await expect(
        createBookingRequest(ctx, as(client), request(artist.artistId, { eventDate: today })),
      ).resolves.toMatchObject({ id: expect.any(String) });
      expect(
        await refusal(
          createBookingRequest(
            ctx,
            as(client),
            request(artist.artistId, { eventDate: addDays(today, -1) }),
          ),
        ),
      ).toMatchObject({
        code: "invalid",
        message: "Please choose today or a later date.",
        reason: BOOKING_REFUSALS.dateNotAvailable,
      });
    }
  });

  it("reads, writes and the job settle a booking by its artist's date", async () => {
    const client = await createUser(database.db);
    const west = await artistIn(WEST);
    const east = await artistIn(EAST);
    // West's today: still open there, although the app's date may be a day later.
    const open = await createBookingRequest(
      ctx,
      as(client),
      request(west.artistId, { eventDate: todayIn(WEST) }),
    );
    await acceptBooking(ctx, asArtist(west), open.id);
    // East's yesterday: over there, although the app's date may still be that day.
    const over = await createBookingRequest(
      ctx,
      as(client),
      request(east.artistId, { eventDate: addDays(todayIn(EAST), 5) }),
    );
    await acceptBooking(ctx, asArtist(east), over.id);
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(todayIn(EAST), -1) })
      .where(eq(bookings.id, over.id));

    const listed = await listClientBookings(ctx, as(client));
    expect(listed.find((b) => b.id === open.id)).toMatchObject({
      status: "confirmed",
      timeZone: WEST,
    });
    expect(listed.find((b) => b.id === over.id)).toMatchObject({
      status: "completed",
      beforeEventDay: false,
      timeZone: EAST,
    });

    await autoCompletePastBookings(database.db, todayIn(env.timeZone));
    const stored = async (id: string) =>
      (
        await database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id))
      )[0]?.s;
    expect(await stored(open.id)).toBe("confirmed");
    expect(await stored(over.id)).toBe("completed");
  });
});

describe("a start time that has already passed today", () => {
  /** A zone where it is now between 01:00 and 21:59, so an hour either side is still today. */
  const zone = [
    env.timeZone,
    "Europe/London",
    "America/Los_Angeles",
    "Asia/Tokyo",
    EAST,
    WEST,
  ].find((z) => {
    const hour = Number(wallClockIn(new Date(), z).time.slice(0, 2));
    return hour >= 1 && hour <= 21;
  }) as string;
  const shifted = (minutes: number) => {
    const { time } = wallClockIn(new Date(Date.now() + minutes * 60_000), zone);
    return time;
  };

  it("is refused like a past date, on the start time field; a later time today is taken", async () => {
    const artist = await artistIn(zone);
    const client = await createUser(database.db);
    const today = todayIn(zone);
    const error = await refusal(
      createBookingRequest(
        ctx,
        as(client),
        request(artist.artistId, { eventDate: today, startTime: shifted(-60) }),
      ),
    );
    expect(error).toMatchObject({
      code: "invalid",
      reason: BOOKING_REFUSALS.startTimePassed,
      fieldErrors: {
        startTime: "This start time has already passed today. Please choose a later time.",
      },
    });
    await expect(
      createBookingRequest(
        ctx,
        as(client),
        request(artist.artistId, { eventDate: today, startTime: shifted(60) }),
      ),
    ).resolves.toMatchObject({ id: expect.any(String) });
    // The same early time on a later day is fine.
    await expect(
      createBookingRequest(
        ctx,
        as(client),
        request(artist.artistId, { eventDate: addDays(today, 1), startTime: shifted(-60) }),
      ),
    ).resolves.toMatchObject({ id: expect.any(String) });
  });
});

describe("a second pending request for the same artist and date", () => {
  it("is refused with the first request's id; other dates, other clients and answered requests are not", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const other = await createUser(database.db);
    const date = addDays(todayIn(env.timeZone), 12);
    const first = await createBookingRequest(
      ctx,
      as(client),
      request(artist.artistId, { eventDate: date }),
    );
    const count = async () =>
      (
        await database.db
          .select({ id: bookings.id })
          .from(bookings)
          .where(and(eq(bookings.artistProfileId, artist.artistId), eq(bookings.eventDate, date)))
      ).length;
    const error = await refusal(
      createBookingRequest(
        ctx,
        as(client),
        request(artist.artistId, { eventDate: date, venue: "Elsewhere" }),
      ),
    );
    expect(error).toMatchObject({
      code: "conflict",
      reason: BOOKING_REFUSALS.duplicateRequest,
      fieldErrors: { pendingBookingId: first.id },
    });
    expect((error as Error).message).toMatch(/^You already have a pending request to .+ for /);
    expect(await count()).toBe(1);
    // Sent at once, still only one gets through.
    const twice = await Promise.allSettled(
      [1, 2].map(() =>
        createBookingRequest(ctx, as(other), request(artist.artistId, { eventDate: date })),
      ),
    );
    expect(twice.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await count()).toBe(2);
    await createBookingRequest(
      ctx,
      as(client),
      request(artist.artistId, { eventDate: addDays(date, 1) }),
    );
    // Once the first is answered, a new request for that date may be sent.
    await declineBooking(ctx, asArtist(artist), first.id);
    await expect(
      createBookingRequest(ctx, as(client), request(artist.artistId, { eventDate: date })),
    ).resolves.toMatchObject({ id: expect.any(String) });
  });
});

describe("declining with a reason", () => {
  it("stores the optional reason, which the client reads, and mails it", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const withReason = await createBookingRequest(ctx, as(client), request(artist.artistId));
    await declineBooking(ctx, asArtist(artist), {
      bookingId: withReason.id,
      reason: "  I'm on tour that week.  ",
    });
    expect(await getBooking(ctx, as(client), withReason.id)).toMatchObject({
      status: "rejected",
      declineReason: "I'm on tour that week.",
    });
    const mail = sent.findLast((m) => m.to === client.email);
    expect(mail?.subject).toMatch(/declined your booking$/);
    expect(mail?.text).toContain("Their reason:\nI'm on tour that week.");

    const without = await createBookingRequest(
      ctx,
      as(client),
      request(artist.artistId, { eventDate: addDays(todayIn(env.timeZone), 11) }),
    );
    await declineBooking(ctx, asArtist(artist), { bookingId: without.id, reason: "   " });
    expect((await getBooking(ctx, as(client), without.id))?.declineReason).toBeNull();
    expect(sent.findLast((m) => m.to === client.email)?.text).not.toContain("Their reason");
  });
});

describe("the client cancelling", () => {
  it("tells the artist by mail", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db, { firstName: "Mira", lastName: "Shah" });
    const { id } = await createBookingRequest(ctx, as(client), request(artist.artistId));
    await acceptBooking(ctx, asArtist(artist), id);
    const before = sent.length;
    await cancelBooking(ctx, as(client), id);
    const mails = sent.slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [artist.user.email, expect.stringMatching(/^Mira Shah cancelled the booking for /)],
    ]);
    expect(mails[0]?.text).toContain("The date is available again in your calendar.");
  });
});

describe("message mails", () => {
  it("at most one per booking and recipient in 15 minutes while the messages are unread", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const { id } = await createBookingRequest(ctx, as(client), request(artist.artistId));
    const booking = await getBooking(ctx, asArtist(artist), id);
    if (!booking) throw new Error("the artist reads the booking");
    const mailsTo = (email: string) =>
      sent.filter((m) => m.to === email && m.subject.startsWith("New message from")).length;

    await sendMessage(ctx, as(client), { bookingId: id, message: "One" });
    await sendMessage(ctx, as(client), { bookingId: id, message: "Two" });
    await sendMessage(ctx, as(client), { bookingId: id, message: "Three" });
    expect(mailsTo(artist.user.email)).toBe(1);
    // The other direction has its own allowance.
    await sendMessage(ctx, asArtist(artist), { bookingId: id, message: "Hello" });
    expect(mailsTo(client.email)).toBe(1);

    // The artist opens the booking: read, so the next message mails again at once.
    await markMessagesRead(ctx, asArtist(artist), booking);
    await sendMessage(ctx, as(client), { bookingId: id, message: "Four" });
    expect(mailsTo(artist.user.email)).toBe(2);
    await sendMessage(ctx, as(client), { bookingId: id, message: "Five" });
    expect(mailsTo(artist.user.email)).toBe(2);

    // Fifteen minutes after the last mail, unread messages mail again.
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const reads = and(
      eq(bookingMessageReads.bookingId, id),
      eq(bookingMessageReads.userId, artist.user.id),
    );
    await database.db
      .update(bookingMessageReads)
      .set({ lastMailedAt: at(14), lastReadAt: at(20) })
      .where(reads);
    await sendMessage(ctx, as(client), { bookingId: id, message: "Six" });
    expect(mailsTo(artist.user.email)).toBe(2);
    await database.db
      .update(bookingMessageReads)
      .set({ lastMailedAt: at(15), lastReadAt: at(20) })
      .where(reads);
    await sendMessage(ctx, as(client), { bookingId: id, message: "Seven" });
    expect(mailsTo(artist.user.email)).toBe(3);
    expect(sent.findLast((m) => m.to === artist.user.email)?.text).toContain("Seven");

    // Outsiders mark nothing.
    const stranger = await createUser(database.db);
    await markMessagesRead(ctx, as(stranger), booking);
    const rows = await database.db
      .select({ user: bookingMessageReads.userId })
      .from(bookingMessageReads)
      .where(eq(bookingMessageReads.bookingId, id));
    expect(rows.map((r) => r.user).sort()).toEqual([artist.user.id, client.id].sort());
  });
});
