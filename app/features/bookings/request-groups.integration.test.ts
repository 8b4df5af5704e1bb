import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedInActor } from "~/lib/actor";
import { systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { isProblem } from "~/lib/problem";
import { queryRows } from "~db/client";
import { availability } from "~db/schema";
import { artistActor, createArtist, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { getClientRecord } from "../trust/trust.server";
import { acceptQuote, sendQuote } from "./booking-quotes.server";
import { createBookingRequest, createGroupRequest } from "./booking-requests.server";
import { getBooking } from "./booking-views.server";
import { BOOKING_REQUEST_LIMITS } from "./bookings.constants";
import { GroupRequestSchema } from "./bookings.schema";
import { acceptBooking, cancelBooking, declineBooking } from "./bookings.server";
import { requestGroupOf, WITHDRAWN_FOR_ANOTHER } from "./request-groups.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const sent: Mail[] = [];
const mailer: Mailer = {
  send: async (mail) => {
    sent.push(mail);
  },
  outbox: async () => [],
};
let ctx: Parameters<typeof createGroupRequest>[0];
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-request-groups-test"),
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

async function refusal(run: Promise<unknown>) {
  try {
    await run;
  } catch (error) {
    if (isProblem(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

/** Three artists, a client, and a date a month ahead. */
async function setUp() {
  const artists = await Promise.all(
    ["Asha", "Bela", "Chandni"].map((firstName) =>
      createArtist({ db: database.db }, { user: { firstName }, hourlyRate: 3000 }),
    ),
  );
  const client = await createUser(database.db, { firstName: "Meera", lastName: "Shah" });
  const date = addDays(todayIn(env.timeZone), 30);
  const request = {
    artistIds: artists.map((a) => a.artistId),
    termsSha256: [],
    eventDate: date,
    startTime: "18:00",
    durationHours: 3,
    venue: "Taj Lands End, Mumbai",
    eventType: "Wedding" as const,
    message: "Sangeet evening",
  };
  return { artists, client, date, request };
}

/** Each booking of the client's group: its status and why it was withdrawn. */
async function groupRows(clientId: string) {
  return queryRows<{
    id: string;
    artist: string;
    status: string;
    withdrawnFor: string | null;
    reason: string | null;
    offer: string | null;
  }>(
    database.db,
    sql`SELECT b.id, b.artist_profile_id AS artist, b.status, b.withdrawn_for_id AS "withdrawnFor",
          b.cancel_reason AS reason,
          (SELECT o.status FROM offers o WHERE o.booking_id = b.id
            ORDER BY o.version DESC LIMIT 1) AS offer
        FROM bookings b WHERE b.client_user_id = ${clientId} ORDER BY b.created_at, b.id`,
  );
}

describe("one request to several artists", () => {
  it("makes one booking per artist, sharing a group, with one mail to the client and one to each artist", async () => {
    const { artists, client, request } = await setUp();
    sent.length = 0;
    const made = await createGroupRequest(ctx, as(client), request);
    expect(made.map((m) => m.artistName)).toEqual(artists.map((a) => a.name));
    const rows = await groupRows(client.id);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.status === "pending" && r.offer === "open")).toBe(true);
    const [groups] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(DISTINCT request_group_id)::int AS n FROM bookings
          WHERE client_user_id = ${client.id} AND request_group_id IS NOT NULL`,
    );
    expect(groups?.n).toBe(1);
    const toClient = sent.filter((m) => m.to === client.email);
    expect(toClient.map((m) => m.subject)).toEqual(["Your booking request was sent to 3 artists"]);
    expect(toClient[0]?.text).toContain(
      `${artists[0]?.name}, ${artists[1]?.name} and ${artists[2]?.name}`,
    );
    for (const artist of artists) {
      const mails = sent.filter((m) => m.to === artist.user.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.text).toContain("sent this request to 3 artists");
    }
    // The client sees the others from each booking; an artist sees only how many were asked.
    const first = await getBooking(ctx, as(client), made[0]?.id as string);
    const clientView = await requestGroupOf(ctx, as(client), first as NonNullable<typeof first>);
    expect(clientView?.size).toBe(3);
    // In the artists' names' order.
    expect(clientView?.others.map((o) => o.artistName)).toEqual(
      [artists[1]?.name, artists[2]?.name].sort(),
    );
    const artist0 = artistActor(artists[0] as (typeof artists)[number]);
    const artistBooking = await getBooking(ctx, artist0, made[0]?.id as string);
    const artistView = await requestGroupOf(
      ctx,
      artist0,
      artistBooking as NonNullable<typeof artistBooking>,
    );
    expect(artistView).toEqual({ size: 3, others: [] });
  });

  it("withdraws the others, with their offers, when one artist accepts; they are told, and the client's record does not count them", async () => {
    const { artists, client, request } = await setUp();
    const made = await createGroupRequest(ctx, as(client), request);
    const byArtist = new Map((await groupRows(client.id)).map((r) => [r.artist, r.id]));
    const accepting = artists[1] as (typeof artists)[number];
    const acceptedId = byArtist.get(accepting.artistId) as string;
    sent.length = 0;
    await acceptBooking(ctx, artistActor(accepting), acceptedId);
    const rows = await groupRows(client.id);
    for (const row of rows) {
      if (row.id === acceptedId) {
        expect(row.status).toBe("confirmed");
        expect(row.withdrawnFor).toBeNull();
      } else {
        expect(row).toMatchObject({
          status: "cancelled",
          withdrawnFor: acceptedId,
          reason: WITHDRAWN_FOR_ANOTHER,
          offer: "withdrawn",
        });
      }
    }
    const others = artists.filter((a) => a !== accepting);
    for (const artist of others) {
      const mails = sent.filter((m) => m.to === artist.user.email);
      expect(mails.map((m) => m.subject)).toEqual([
        `Meera Shah withdrew their request for ${mails[0]?.subject.split(" for ")[1]}`,
      ]);
      expect(mails[0]?.text).toContain("has agreed with another of them");
    }
    // A withdrawn request can no longer be accepted, and says why.
    const late = others[0] as (typeof artists)[number];
    expect(
      await refusal(acceptBooking(ctx, artistActor(late), byArtist.get(late.artistId) as string)),
    ).toEqual({ code: "conflict", message: WITHDRAWN_FOR_ANOTHER });
    // The artist who agreed reads the client's record: no cancellations for the withdrawn ones.
    const record = await getClientRecord(ctx, artistActor(accepting), { clientUserId: client.id });
    expect(record?.cancelledBookings).toBe(0);
    expect(made).toHaveLength(3);
  });

  it("withdraws the others when the client accepts one artist's quote", async () => {
    const { artists, client, request, date } = await setUp();
    await createGroupRequest(ctx, as(client), request);
    const byArtist = new Map((await groupRows(client.id)).map((r) => [r.artist, r.id]));
    const quoting = artists[2] as (typeof artists)[number];
    const quotedId = byArtist.get(quoting.artistId) as string;
    // Another artist quotes too: that quote is withdrawn with its request.
    const other = artists[0] as (typeof artists)[number];
    const quoteInput = {
      eventDate: date,
      startTime: "18:00",
      durationHours: 3,
      lines: [{ label: "Sitar and tabla, 3 hours", amountPaise: 4_500_000 }],
      depositPercent: 30,
      balanceDueDays: 7,
      policy: "moderate" as const,
      included: [],
      notes: null,
      expiresInDays: 7,
    };
    await sendQuote(ctx, artistActor(other), {
      bookingId: byArtist.get(other.artistId) as string,
      quote: quoteInput,
    });
    const offer = await sendQuote(ctx, artistActor(quoting), {
      bookingId: quotedId,
      quote: quoteInput,
    });
    await acceptQuote(ctx, as(client), { bookingId: quotedId, sha256: offer.sha256 });
    const rows = await groupRows(client.id);
    expect(rows.find((r) => r.id === quotedId)?.status).toBe("confirmed");
    const withdrawn = rows.filter((r) => r.id !== quotedId);
    expect(withdrawn.map((r) => [r.status, r.withdrawnFor, r.offer])).toEqual([
      ["cancelled", quotedId, "withdrawn"],
      ["cancelled", quotedId, "withdrawn"],
    ]);
  });

  it("lets exactly one of two artists accepting at once win; the other finds the request withdrawn", async () => {
    for (let run = 0; run < 5; run++) {
      const { artists, client, request } = await setUp();
      await createGroupRequest(ctx, as(client), request);
      const byArtist = new Map((await groupRows(client.id)).map((r) => [r.artist, r.id]));
      const results = await Promise.all(
        artists.map((a) =>
          acceptBooking(ctx, artistActor(a), byArtist.get(a.artistId) as string).then(
            () => "done",
            (error: unknown) =>
              isProblem(error) ? `${error.code}: ${error.message}` : Promise.reject(error),
          ),
        ),
      );
      // The artists who lost the race are told why.
      const lost = `conflict: ${WITHDRAWN_FOR_ANOTHER}`;
      expect(results.sort()).toEqual([lost, lost, "done"].sort());
      const rows = await groupRows(client.id);
      const agreed = rows.filter((r) => r.status === "confirmed");
      expect(agreed).toHaveLength(1);
      expect(rows.filter((r) => r.withdrawnFor === agreed[0]?.id)).toHaveLength(2);
    }
  });

  it("stores a group and a single request sent at once by one client, one after the other", async () => {
    for (let run = 0; run < 5; run++) {
      const { artists, client, request } = await setUp();
      const [x, y] = artists as [(typeof artists)[number], (typeof artists)[number]];
      const single = addDays(request.eventDate, 1);
      // The group to X and Y, and a single request to Y for another date, sent together: each
      // takes the client's lock and the limits' rows, and neither waits on the other in a circle.
      const results = await Promise.all([
        createGroupRequest(ctx, as(client), { ...request, artistIds: [x.artistId, y.artistId] }),
        createBookingRequest(ctx, as(client), {
          artistId: y.artistId,
          eventDate: single,
          startTime: null,
          durationHours: 2,
          venue: "Hall",
          eventType: "Live Show",
          message: null,
        }),
      ]);
      expect(results).toHaveLength(2);
      expect(await groupRows(client.id)).toHaveLength(3);
    }
  });

  it("leaves the others alone when one declines or the client withdraws one", async () => {
    const { artists, client, request } = await setUp();
    await createGroupRequest(ctx, as(client), request);
    const byArtist = new Map((await groupRows(client.id)).map((r) => [r.artist, r.id]));
    const [a, b] = artists as [(typeof artists)[number], (typeof artists)[number]];
    await declineBooking(ctx, artistActor(a), byArtist.get(a.artistId) as string);
    await cancelBooking(ctx, as(client), byArtist.get(b.artistId) as string);
    const rows = await groupRows(client.id);
    expect(rows.map((r) => r.status).sort()).toEqual(["cancelled", "pending", "rejected"]);
    expect(rows.every((r) => r.withdrawnFor === null)).toBe(true);
  });

  it("sends nothing when any artist is not free on the date, naming them", async () => {
    const { artists, client, request, date } = await setUp();
    const busy = artists[1] as (typeof artists)[number];
    await database.db
      .insert(availability)
      .values({ artistProfileId: busy.artistId, date, status: "unavailable" });
    sent.length = 0;
    const refused = await refusal(createGroupRequest(ctx, as(client), request));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toContain(`${busy.name} is not free on`);
    expect(refused.message).toContain("Remove them from this request or choose another date.");
    expect(await groupRows(client.id)).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("counts each artist against the client's limits, all or nothing", async () => {
    const { artists, client, request } = await setUp();
    // The client has sent all but two of the hour's requests: a group of three is refused whole.
    const { max } = BOOKING_REQUEST_LIMITS.perClient;
    await database.db.execute(
      sql`INSERT INTO rate_limits (key, count, last_request)
          VALUES (${`booking-request:${client.id}`}, ${max - 2}, ${Date.now()})`,
    );
    const refused = await refusal(createGroupRequest(ctx, as(client), request));
    expect(refused.code).toBe("rate_limited");
    expect(await groupRows(client.id)).toEqual([]);
    // Two artists still fit.
    await createGroupRequest(ctx, as(client), {
      ...request,
      artistIds: request.artistIds.slice(0, 2),
    });
    expect(await groupRows(client.id)).toHaveLength(2);
    expect(artists).toHaveLength(3);
  });

  it("refuses a pending request already sent to one of them, and the client's own profile", async () => {
    const { artists, client, request } = await setUp();
    await createGroupRequest(ctx, as(client), {
      ...request,
      artistIds: request.artistIds.slice(0, 2),
    });
    const again = await refusal(createGroupRequest(ctx, as(client), request));
    expect(again.code).toBe("conflict");
    expect(again.message).toContain("You already have a pending request to");
    expect(await groupRows(client.id)).toHaveLength(2);
    const self = artists[0] as (typeof artists)[number];
    const own = await refusal(
      createGroupRequest(ctx, artistActor(self), {
        ...request,
        artistIds: [self.artistId, artists[1]?.artistId as string],
      }),
    );
    expect(own.code).toBe("forbidden");
  });

  it("reads the form: two or three distinct artists, each with its terms", () => {
    const form = (ids: string[]) => ({
      artistIds: ids.length === 1 ? ids[0] : ids,
      eventDate: "2031-01-10",
      durationHours: "3",
      venue: "Hall",
    });
    const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    expect(GroupRequestSchema.safeParse(form([id(1), id(2)])).success).toBe(true);
    expect(GroupRequestSchema.safeParse(form([id(1), id(2), id(3)])).success).toBe(true);
    const errorOf = (ids: string[]) =>
      GroupRequestSchema.safeParse(form(ids)).error?.issues[0]?.message;
    expect(errorOf([id(1)])).toBe(
      "Choose at least two artists, or send a request from one artist's page.",
    );
    expect(errorOf([id(1), id(2), id(3), id(4)])).toBe("One request can go to at most 3 artists.");
    expect(errorOf([id(1), id(1)])).toBe("Each artist can be asked only once.");
    expect(errorOf([id(1), "not-an-id"])).toBe("Artist profile not found.");
  });
});
