import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedInActor } from "~/lib/actor";
import { type Clock, systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mailer } from "~/lib/mail.server";
import { isProblem } from "~/lib/problem";
import { queryRows } from "~db/client";
import { availability, bookings } from "~db/schema";
import { artistActor, createArtist, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { createBookingRequest } from "./booking-requests.server";
import { acceptBooking, cancelBooking } from "./bookings.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const mailer: Mailer = { send: async () => {}, outbox: async () => [] };
let ctx: Parameters<typeof createBookingRequest>[0];
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-booking-races-test"),
  BETTER_AUTH_SECRET: "x".repeat(40),
});

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = { db: database.db, env, logger: pino({ level: "silent" }), mailer, clock: systemClock };
});
afterAll(async () => {
  await database?.dispose();
});

const as = (user: { id: string }): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId: null,
});

/** What a date's rows say: the mark in the calendar, the busy day, and the confirmed bookings. */
async function dateState(artistId: string, date: string) {
  const [mark] = await database.db
    .select({ status: availability.status })
    .from(availability)
    .where(and(eq(availability.artistProfileId, artistId), eq(availability.date, date)));
  const confirmed = await database.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.artistProfileId, artistId),
        eq(bookings.eventDate, date),
        eq(bookings.status, "confirmed"),
      ),
    );
  const [busy] = await queryRows<{ busy: boolean }>(
    database.db,
    sql`SELECT EXISTS (SELECT 1 FROM artist_busy_days
      WHERE artist_profile_id = ${artistId} AND date = ${date}::date) AS busy`,
  );
  return { mark: mark?.status ?? null, confirmed: confirmed.length, busy: busy?.busy ?? false };
}

/** Settles a promise into "done" or the refusal's code; anything else fails the test. */
const outcome = (run: Promise<unknown>) =>
  run.then(
    () => "done" as const,
    (error: unknown) => {
      if (isProblem(error)) return error.code;
      throw error;
    },
  );

describe("a client's cancel racing the artist's accept", () => {
  it("leaves the date booked exactly when a confirmed booking holds it, in every interleaving", async () => {
    const artist = await createArtist({ db: database.db });
    const today = todayIn(env.timeZone);
    const runs = 15;
    const seen = new Set<string>();
    for (let run = 0; run < runs; run++) {
      // A client per run: one client may send an artist only a few requests a day.
      const client = await createUser(database.db);
      const date = addDays(today, 10 + run);
      const { id } = await createBookingRequest(ctx, as(client), {
        artistId: artist.artistId,
        eventDate: date,
        startTime: null,
        durationHours: 2,
        venue: "Blue Frog",
        eventType: "Live Show",
        message: null,
      });
      // Both read the pending booking before either writes; which one wins varies by run.
      const [accepted, cancelled] = await Promise.all([
        outcome(acceptBooking(ctx, artistActor(artist), id)),
        outcome(cancelBooking(ctx, as(client), id)),
      ]);
      seen.add(`${accepted}/${cancelled}`);
      const [row] = await database.db
        .select({ status: bookings.status })
        .from(bookings)
        .where(eq(bookings.id, id));
      const state = await dateState(artist.artistId, date);
      // Whatever happened, the client's cancel was never refused: the booking ends cancelled.
      expect(cancelled).toBe("done");
      expect(row?.status).toBe("cancelled");
      expect(state).toEqual({
        mark: accepted === "done" ? "available" : null,
        confirmed: 0,
        busy: false,
      });
    }
    // The interleaving that used to leave the date booked: the accept went through and the
    // cancel, which had read the booking as pending, cancelled it after.
    expect(seen).toContain("done/done");
  });

  it("marks the date booked while the booking is confirmed and frees it when the client cancels", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const date = addDays(todayIn(env.timeZone), 40);
    const { id } = await createBookingRequest(ctx, as(client), {
      artistId: artist.artistId,
      eventDate: date,
      startTime: "19:00",
      durationHours: 2,
      venue: "Hard Rock Cafe",
      eventType: "Live Show",
      message: null,
    });
    await acceptBooking(ctx, artistActor(artist), id);
    expect(await dateState(artist.artistId, date)).toEqual({
      mark: "booked",
      confirmed: 1,
      busy: true,
    });
    await cancelBooking(ctx, as(client), id);
    expect(await dateState(artist.artistId, date)).toEqual({
      mark: "available",
      confirmed: 0,
      busy: false,
    });
  });
});
