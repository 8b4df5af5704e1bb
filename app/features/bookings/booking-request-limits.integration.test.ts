import { and, eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedInActor } from "~/lib/actor";
import { systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import type { Mail } from "~/lib/mail.server";
import { isProblem, statusOf } from "~/lib/problem";
import { bookings } from "~db/schema";
import { addArtistProfile, createArtist, createUser } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { responseRateText } from "../trust/trust";
import { getTrustFigures, listTrustReceipts } from "../trust/trust.server";
import { createBookingRequest } from "./booking-requests.server";
import { BOOKING_REQUEST_LIMITS } from "./bookings.constants";

/**
 * A client who sends booking requests as fast as they can (docs/product.md, "Bookings" and
 * "Trust figures"; decision 038): the limit stops the flood before anything is stored or mailed,
 * and what does get through moves the artist's response rate by one request.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
const sent: Mail[] = [];
let ctx: Parameters<typeof createBookingRequest>[0];

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  ctx = {
    db: database.db,
    env: app.env,
    logger: pino({ level: "silent" }),
    mailer: { send: async (m) => void sent.push(m), outbox: async () => [] },
    clock: systemClock,
  };
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const as = (user: { id: string }): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId: null,
});

const today = () => todayIn(app.env.timeZone);

const requestFor = (artistId: string, days: number) => ({
  artistId,
  eventDate: addDays(today(), days),
  startTime: null,
  durationHours: 2,
  venue: "Blue Frog",
  eventType: "Live Show" as const,
  message: "CALL ME NOW www.example.com",
});

/** Sends `count` requests at once, one date each, and sorts the answers. */
async function burst(client: { id: string }, artistId: string, count: number, firstDay = 10) {
  const answers = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      createBookingRequest(ctx, as(client), requestFor(artistId, firstDay + i)),
    ),
  );
  const refused = answers.flatMap((a) => (a.status === "rejected" ? [a.reason] : []));
  for (const reason of refused) {
    if (!isProblem(reason)) throw reason;
  }
  return {
    stored: answers.filter((a) => a.status === "fulfilled").length,
    refused: refused.filter(isProblem),
  };
}

async function storedRequests(clientId: string, artistId: string) {
  return database.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.clientUserId, clientId), eq(bookings.artistProfileId, artistId)));
}

describe("a burst of booking requests", () => {
  it("is cut off at the limit: 40 sent at once store 5 requests and mail the artist 5 times", async () => {
    const artist = await createArtist({ db: database.db }, { name: "Flooded Trio" });
    const client = await createUser(database.db);
    const { perArtist } = BOOKING_REQUEST_LIMITS;
    const { stored, refused } = await burst(client, artist.artistId, 40);
    expect(stored).toBe(perArtist.max);
    expect(refused).toHaveLength(40 - perArtist.max);
    for (const problem of refused) {
      expect(problem.code).toBe("rate_limited");
      expect(statusOf(problem.code)).toBe(429);
      expect(problem.message).toMatch(
        /^You have sent Flooded Trio 5 booking requests in the last 24 hours\. Please wait for an answer, or send another request in (2[0-4]|1?\d) hours?\.$/,
      );
    }
    // Refused requests are never stored, and never mailed.
    expect(await storedRequests(client.id, artist.artistId)).toHaveLength(perArtist.max);
    expect(sent.filter((m) => m.to === artist.user.email)).toHaveLength(perArtist.max);
    // Another client is not held back by this one.
    const other = await createUser(database.db);
    expect((await burst(other, artist.artistId, 1, 60)).stored).toBe(1);
  });

  it("to many artists is cut off at the client's hourly limit", async () => {
    const client = await createUser(database.db);
    const { perClient } = BOOKING_REQUEST_LIMITS;
    const artists = [];
    for (let i = 0; i <= perClient.max; i++) artists.push(await createArtist({ db: database.db }));
    const answers = [];
    for (const artist of artists)
      answers.push(await burst(client, artist.artistId, 1).then((b) => b.refused[0] ?? "stored"));
    expect(answers.filter((a) => a === "stored")).toHaveLength(perClient.max);
    const last = answers.at(-1);
    expect(isProblem(last) && last.code).toBe("rate_limited");
    expect(isProblem(last) && last.message).toMatch(
      /^You have sent 12 booking requests in the last hour\. Please send the next one in \d+ minutes?\.$/,
    );
    expect(await storedRequests(client.id, artists.at(-1)?.artistId ?? "")).toHaveLength(0);
  });

  it("moves the artist's response rate by one request, answered when any of them is", async () => {
    const artist = await createArtist({ db: database.db });
    // Ten clients, each answered within an hour, days ago: 100 %.
    for (let i = 0; i < 10; i++) {
      const client = await createUser(database.db);
      await database.db.insert(bookings).values({
        artistProfileId: artist.artistId,
        clientUserId: client.id,
        eventDate: addDays(today(), 80 + i),
        durationHours: 2,
        venue: "Town Hall",
        eventType: "Wedding",
        status: "rejected",
        totalAmount: 300,
        createdAt: sql`now() - make_interval(days => ${3 + i})`,
        respondedAt: sql`now() - make_interval(days => ${3 + i}) + interval '1 hour'`,
      });
    }
    const rate = async () => {
      const figures = (await getTrustFigures(ctx, null, [artist.artistId]))[artist.artistId];
      return figures ? responseRateText(figures.response) : null;
    };
    expect(await rate()).toBe("Responds within 24 h to 100% of requests (10 in 90 days)");

    const flooder = await createUser(database.db);
    const { stored } = await burst(flooder, artist.artistId, 40);
    expect(stored).toBe(BOOKING_REQUEST_LIMITS.perArtist.max);
    // A day and a half later, none of them answered.
    await database.db
      .update(bookings)
      .set({ createdAt: sql`now() - interval '36 hours'` })
      .where(eq(bookings.clientUserId, flooder.id));
    // Counted per request, it would read 67% (10 of 15); without the limit, 20% (10 of 50).
    expect(await rate()).toBe("Responds within 24 h to 91% of requests (11 in 90 days)");
    const receipts = await listTrustReceipts(ctx, {
      id: artist.user.id,
      roles: ["artist"],
      artistProfileId: artist.artistId,
    });
    expect(receipts?.requests).toHaveLength(11);
    expect(receipts?.requests.filter((r) => r.withinWindow)).toHaveLength(10);
    expect(receipts?.requests.map((r) => r.sameDayRequests).sort()).toEqual([
      ...Array(10).fill(0),
      4,
    ]);

    // The artist answers one of the five within the day: the client was answered.
    const [one] = await storedRequests(flooder.id, artist.artistId);
    await database.db
      .update(bookings)
      .set({ respondedAt: sql`now() - interval '30 hours'`, status: "rejected" })
      .where(eq(bookings.id, one?.id ?? ""));
    expect(await rate()).toBe("Responds within 24 h to 100% of requests (11 in 90 days)");
  });
});

describe("the booking form over the limit", () => {
  it("answers 429 in plain words and keeps everything typed", async () => {
    const owner = await signedInUser(app, database.db, "Meera");
    const artistId = await addArtistProfile({ db: database.db }, owner.id, {
      name: "Meera Strings",
    });
    const client = await signedInUser(app, database.db, "Kabir");
    const typed = {
      artistId,
      durationHours: "3",
      venue: "The Blue Room",
      eventType: "Private Event",
      startTime: "19:30",
      message: "Evening reception, 80 guests.",
    };
    const action = `/bookings?artist=${artistId}`;
    for (let i = 0; i < BOOKING_REQUEST_LIMITS.perArtist.max; i++) {
      const res = await postForm(
        app,
        action,
        { ...typed, eventDate: addDays(today(), 20 + i) },
        client.cookie,
      );
      expect(res.status).toBe(302);
    }
    const eventDate = addDays(today(), 40);
    const res = await postForm(app, action, { ...typed, eventDate }, client.cookie);
    expect(res.status).toBe(429);
    const html = await res.text();
    expect(html).toContain(
      "You have sent Meera Strings 5 booking requests in the last 24 hours. Please wait for an answer, or send another request in ",
    );
    expect(html).toMatch(
      /name="venue"[^>]*value="The Blue Room"|value="The Blue Room"[^>]*name="venue"/,
    );
    expect(html).toMatch(/name="startTime"[^>]*value="19:30"|value="19:30"[^>]*name="startTime"/);
    expect(html).toMatch(
      new RegExp(
        `name="eventDate"[^>]*value="${eventDate}"|value="${eventDate}"[^>]*name="eventDate"`,
      ),
    );
    expect(html).toContain("Evening reception, 80 guests.</textarea>");
    expect(await storedRequests(client.id, artistId)).toHaveLength(
      BOOKING_REQUEST_LIMITS.perArtist.max,
    );
  });
});
