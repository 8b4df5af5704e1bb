import { createHash, createPublicKey, verify } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { canonicalize } from "json-canonicalize";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedAgreement } from "~/features/agreements/agreement-document";
import { agreementJobs } from "~/features/agreements/agreement-mails.server";
import { sessionClaimsOf } from "~/features/credentials/session-claims.server";
import type { SignedInActor } from "~/lib/actor";
import { type Clock, systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { base58btcDecode } from "~/lib/ed25519-key.server";
import { loadEnv } from "~/lib/env.server";
import { runDueJobs } from "~/lib/jobs.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { isProblem } from "~/lib/problem";
import { queryRows } from "~db/client";
import { availability, bookings } from "~db/schema";
import { artistActor, createArtist, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { acceptQuote, askForChanges, declineQuote, sendQuote } from "./booking-quotes.server";
import { rateBooking } from "./booking-ratings.server";
import { createBookingRequest } from "./booking-requests.server";
import { listArtistBookings, listClientBookings } from "./booking-views.server";
import { acceptBooking, cancelBooking } from "./bookings.server";
import type { QuoteInput } from "./quotes.schema";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const sent: Mail[] = [];
const mailer: Mailer = {
  send: async (mail) => {
    sent.push(mail);
  },
  outbox: async () => [],
};
let ctx: Parameters<typeof createBookingRequest>[0];
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-quotes-test"),
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

/** The refusal's code, or "done"; anything else fails the test. */
const outcome = (run: Promise<unknown>) =>
  run.then(
    () => "done" as const,
    (error: unknown) => {
      if (isProblem(error)) return error.code;
      throw error;
    },
  );

async function refusal(run: Promise<unknown>) {
  try {
    await run;
  } catch (error) {
    if (isProblem(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

function quote(overrides: Partial<QuoteInput> = {}, daysAhead = 30): QuoteInput {
  return {
    eventDate: addDays(todayIn(env.timeZone), daysAhead),
    startTime: "19:30",
    durationHours: 2.5,
    lines: [
      { label: "2 sets of 45 minutes", amountPaise: 3_000_000 },
      { label: "Sound system", amountPaise: 500_050 },
    ],
    depositPercent: 30,
    balanceDueDays: 7,
    policy: "strict",
    included: ["Own sound system for 150 guests"],
    notes: null,
    expiresInDays: 7,
    ...overrides,
  };
}

async function requested(daysAhead = 30) {
  const artist = await createArtist({ db: database.db });
  const client = await createUser(database.db);
  const booking = await createBookingRequest(ctx, as(client), {
    artistId: artist.artistId,
    eventDate: addDays(todayIn(env.timeZone), daysAhead),
    startTime: "19:00",
    durationHours: 2,
    venue: "Grand Hall",
    eventType: "Wedding",
    message: null,
  });
  return { artist, client, bookingId: booking.id };
}

async function offersOf(bookingId: string) {
  return queryRows<{ version: number; kind: string; status: string; sha256: string }>(
    database.db,
    sql`SELECT version, kind, status, sha256 FROM offers WHERE booking_id = ${bookingId}
      ORDER BY version`,
  );
}

async function agreementsOf(bookingId: string) {
  return queryRows<{ status: string; json: string; sha256: string }>(
    database.db,
    sql`SELECT status, json, sha256 FROM agreements WHERE booking_id = ${bookingId}
      ORDER BY frozen_at`,
  );
}

/**
 * Checks agreement.json without our code: json-canonicalize for RFC 8785, node:crypto for the
 * hash and the Ed25519 signature, the public key decoded from its multibase by hand.
 */
function independentlyValid(json: string) {
  const signed = JSON.parse(json) as SignedAgreement;
  const hash = createHash("sha256").update(canonicalize(signed.agreement), "utf8").digest();
  if (hash.toString("hex") !== signed.signature.sha256) return false;
  const raw = base58btcDecode(signed.signature.publicKeyMultibase.slice(1));
  if (!raw || raw[0] !== 0xed || raw[1] !== 0x01) return false;
  const key = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(raw.slice(2)).toString("base64url") },
    format: "jwk",
  });
  return verify(null, hash, key, Buffer.from(signed.signature.value, "base64url"));
}

describe("a request is an offer on the artist's terms", () => {
  it("keeps version 1 with the client's acceptance, and 'Accept Booking' freezes a signed agreement", async () => {
    const { artist, client, bookingId } = await requested();
    const [v1] = await offersOf(bookingId);
    expect(v1).toMatchObject({ version: 1, kind: "request", status: "open" });
    await acceptBooking(ctx, artistActor(artist), bookingId, { sha256: v1?.sha256 });
    const [agreement] = await agreementsOf(bookingId);
    expect(agreement?.status).toBe("in_force");
    expect(independentlyValid(agreement?.json ?? "")).toBe(true);
    const signed = JSON.parse(agreement?.json ?? "{}") as SignedAgreement;
    expect(signed.agreement.bookingId).toBe(bookingId);
    expect(signed.agreement.offerSha256).toBe(v1?.sha256);
    expect(signed.agreement.acceptances.map((a) => [a.party, a.userId, a.sha256Shown])).toEqual(
      expect.arrayContaining([
        ["client", client.id, v1?.sha256],
        ["artist", artist.user.id, v1?.sha256],
      ]),
    );
    expect(signed.agreement.offer.cancellation.policy).toBe("moderate");
    expect(signed.agreement.offer.payments.depositBps).toBe(3000);
    expect((await offersOf(bookingId))[0]?.status).toBe("accepted");
  });

  it("refuses 'Accept Booking' with a stale request hash and changes nothing", async () => {
    const { artist, bookingId } = await requested();
    const stale = "0".repeat(64);
    expect(
      await refusal(acceptBooking(ctx, artistActor(artist), bookingId, { sha256: stale })),
    ).toEqual({ code: "conflict", message: "The request changed while you were reading it." });
    const [row] = await database.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    expect(row?.status).toBe("pending");
    expect(await agreementsOf(bookingId)).toEqual([]);
  });
});

describe("quotes", () => {
  it("keeps every version; accepting the open one with its hash agrees the booking on its terms", async () => {
    const { artist, client, bookingId } = await requested(40);
    const v2 = await sendQuote(ctx, artistActor(artist), { bookingId, quote: quote({}, 41) });
    expect(v2.version).toBe(2);
    expect(v2.document.price.totalPaise).toBe(3_500_050);
    expect(v2.document.payments).toMatchObject({
      depositPaise: 1_050_015,
      balancePaise: 2_450_035,
    });
    // The artist cannot accept the client's request any more: the quote answered it.
    expect(await outcome(acceptBooking(ctx, artistActor(artist), bookingId))).toBe("conflict");
    await askForChanges(ctx, as(client), {
      bookingId,
      change: {
        message: "Could you do it for ₹30,000?",
        wishedTotal: 3_000_000,
        wishedDepositPercent: 20,
        wishedPolicy: "moderate",
      },
    });
    const v3 = await sendQuote(ctx, artistActor(artist), {
      bookingId,
      quote: quote(
        { lines: [{ label: "2 sets", amountPaise: 3_200_000 }], policy: "moderate" },
        41,
      ),
    });
    expect((await offersOf(bookingId)).map((o) => [o.version, o.status])).toEqual([
      [1, "superseded"],
      [2, "superseded"],
      [3, "open"],
    ]);
    // The client read version 2: the quote changed while they were reading it.
    expect(await refusal(acceptQuote(ctx, as(client), { bookingId, sha256: v2.sha256 }))).toEqual({
      code: "conflict",
      message: "The quote changed while you were reading it.",
    });
    expect(await agreementsOf(bookingId)).toEqual([]);
    await acceptQuote(ctx, as(client), { bookingId, sha256: v3.sha256 });
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row).toMatchObject({
      status: "confirmed",
      eventDate: addDays(todayIn(env.timeZone), 41),
      startTime: "19:30:00",
      durationHours: 2.5,
      totalAmount: 32_000,
    });
    const [agreement] = await agreementsOf(bookingId);
    expect(independentlyValid(agreement?.json ?? "")).toBe(true);
    const signed = JSON.parse(agreement?.json ?? "{}") as SignedAgreement;
    expect(signed.agreement.offer.version).toBe(3);
    expect(signed.agreement.acceptances.every((a) => a.sha256Shown === v3.sha256)).toBe(true);
    // The new date is booked; the request's date was never confirmed.
    const [mark] = await database.db
      .select({ status: availability.status })
      .from(availability)
      .where(eq(availability.date, addDays(todayIn(env.timeZone), 41)));
    expect(mark?.status).toBe("booked");
  });

  it("refuses an expired quote, and a superseded one, and never agrees them", async () => {
    const { artist, client, bookingId } = await requested();
    const v2 = await sendQuote(ctx, artistActor(artist), { bookingId, quote: quote() });
    await database.db.execute(
      sql`UPDATE offers SET expires_at = now() - interval '1 second' WHERE id = ${v2.id}`,
    );
    expect(await refusal(acceptQuote(ctx, as(client), { bookingId, sha256: v2.sha256 }))).toEqual({
      code: "gone",
      message: "This quote has expired. Ask the artist for a new one.",
    });
    expect(await agreementsOf(bookingId)).toEqual([]);
  });

  it("refuses a quote that would expire less than a day before the event", async () => {
    const { artist, bookingId } = await requested(5);
    expect(
      await refusal(
        sendQuote(ctx, artistActor(artist), { bookingId, quote: quote({ expiresInDays: 5 }, 5) }),
      ),
    ).toEqual({
      code: "invalid",
      message: "The quote must expire at least a day before the event.",
    });
    expect((await offersOf(bookingId)).length).toBe(1);
  });

  it("lets only the artist quote and only the client answer; nobody else sees the booking", async () => {
    const { artist, client, bookingId } = await requested();
    const other = await createArtist({ db: database.db });
    const stranger = await createUser(database.db);
    expect(await outcome(sendQuote(ctx, as(client), { bookingId, quote: quote() }))).toBe(
      "forbidden",
    );
    expect(await outcome(sendQuote(ctx, artistActor(other), { bookingId, quote: quote() }))).toBe(
      "not_found",
    );
    const v2 = await sendQuote(ctx, artistActor(artist), { bookingId, quote: quote() });
    const accept = { bookingId, sha256: v2.sha256 };
    expect(await outcome(acceptQuote(ctx, artistActor(artist), accept))).toBe("forbidden");
    expect(await outcome(acceptQuote(ctx, as(stranger), accept))).toBe("not_found");
    expect(await outcome(declineQuote(ctx, as(stranger), { bookingId }))).toBe("not_found");
    expect(await agreementsOf(bookingId)).toEqual([]);
    expect((await offersOf(bookingId)).map((o) => o.status)).toEqual(["superseded", "open"]);
  });

  it("declining a request's quote ends the request", async () => {
    const { artist, client, bookingId } = await requested();
    await sendQuote(ctx, artistActor(artist), { bookingId, quote: quote() });
    expect(await declineQuote(ctx, as(client), { bookingId })).toEqual({ endsRequest: true });
    const [row] = await database.db
      .select({ status: bookings.status, cancelledBy: bookings.cancelledBy })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    expect(row).toEqual({ status: "cancelled", cancelledBy: "client" });
    expect((await offersOf(bookingId)).at(-1)?.status).toBe("declined");
  });

  it("refuses a date the artist has since marked unavailable", async () => {
    const { artist, client, bookingId } = await requested();
    const v2 = await sendQuote(ctx, artistActor(artist), { bookingId, quote: quote() });
    await database.db.insert(availability).values({
      artistProfileId: artist.artistId,
      date: v2.document.event.date,
      status: "unavailable",
    });
    expect(await outcome(acceptQuote(ctx, as(client), { bookingId, sha256: v2.sha256 }))).toBe(
      "conflict",
    );
    expect(await agreementsOf(bookingId)).toEqual([]);
  });
});

describe("two quotes for one artist and date accepted at once", () => {
  it("agrees exactly one", async () => {
    const artist = await createArtist({ db: database.db });
    const date = addDays(todayIn(env.timeZone), 50);
    const clients = [await createUser(database.db), await createUser(database.db)];
    const quotes = [];
    for (const client of clients) {
      const { id: bookingId } = await createBookingRequest(ctx, as(client), {
        artistId: artist.artistId,
        eventDate: date,
        startTime: null,
        durationHours: 2,
        venue: "Hall",
        eventType: "Live Show",
        message: null,
      });
      const offer = await sendQuote(ctx, artistActor(artist), {
        bookingId,
        quote: quote({ eventDate: date }),
      });
      quotes.push({ client, bookingId, sha256: offer.sha256 });
    }
    const results = await Promise.all(
      quotes.map((q) =>
        outcome(acceptQuote(ctx, as(q.client), { bookingId: q.bookingId, sha256: q.sha256 })),
      ),
    );
    expect(results.sort()).toEqual(["conflict", "done"]);
    const [counted] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM agreements a JOIN bookings b ON b.id = a.booking_id
        WHERE b.artist_profile_id = ${artist.artistId}`,
    );
    expect(counted?.n).toBe(1);
  });
});

describe("changing an agreed booking", () => {
  it("is a new version both accept; the old agreement is superseded, never changed", async () => {
    const { artist, client, bookingId } = await requested(20);
    await acceptBooking(ctx, artistActor(artist), bookingId);
    const [first] = await agreementsOf(bookingId);
    const oldDate = addDays(todayIn(env.timeZone), 20);
    const change = await sendQuote(ctx, artistActor(artist), {
      bookingId,
      quote: quote({ durationHours: 3 }, 22),
    });
    await acceptQuote(ctx, as(client), { bookingId, sha256: change.sha256 });
    const [old, current] = await agreementsOf(bookingId);
    expect(old).toMatchObject({ status: "superseded", json: first?.json, sha256: first?.sha256 });
    expect(current?.status).toBe("in_force");
    const signed = JSON.parse(current?.json ?? "{}") as SignedAgreement;
    expect(signed.agreement.supersedes).toBe(first?.sha256);
    expect(independentlyValid(current?.json ?? "")).toBe(true);
    const marks = await database.db
      .select({ date: availability.date, status: availability.status })
      .from(availability)
      .where(eq(availability.artistProfileId, artist.artistId));
    expect(marks.find((m) => m.date === oldDate)?.status).not.toBe("booked");
    expect(marks.find((m) => m.date === addDays(todayIn(env.timeZone), 22))?.status).toBe("booked");
  });

  it("refuses to rewrite an agreement or an offer in the database", async () => {
    const { artist, bookingId } = await requested();
    await acceptBooking(ctx, artistActor(artist), bookingId);
    await expect(
      database.db.execute(sql`UPDATE agreements SET json = '{}' WHERE booking_id = ${bookingId}`),
    ).rejects.toThrow();
    await expect(
      database.db.execute(sql`UPDATE offers SET canonical = '{}' WHERE booking_id = ${bookingId}`),
    ).rejects.toThrow();
  });
});

describe("cancelling an agreed booking", () => {
  it("records what the agreed policy made of it, and ends the agreement", async () => {
    const { artist, client, bookingId } = await requested(10);
    await acceptBooking(ctx, artistActor(artist), bookingId);
    // Cooling-off needs 7 days' notice and acceptance within a day: 10 days out, just agreed.
    await cancelBooking(ctx, as(client), bookingId);
    const [row] = await database.db
      .select({ cancelOutcome: bookings.cancelOutcome })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    expect(row?.cancelOutcome).toMatchObject({
      canceller: "client",
      coolingOff: true,
      refundPaise: row?.cancelOutcome?.paidPaise,
    });
    expect((await agreementsOf(bookingId))[0]?.status).toBe("cancelled");
  });

  it("counts the cooling-off from the first agreement, not from a change agreed later", async () => {
    const { artist, client, bookingId } = await requested(20);
    await acceptBooking(ctx, artistActor(artist), bookingId);
    // Agreed three days ago; a change agreed just now starts no new cooling-off.
    await database.db.execute(
      sql`UPDATE agreements SET frozen_at = now() - interval '3 days' WHERE booking_id = ${bookingId}`,
    );
    const change = await sendQuote(ctx, artistActor(artist), {
      bookingId,
      quote: quote({ durationHours: 3 }, 20),
    });
    await acceptQuote(ctx, as(client), { bookingId, sha256: change.sha256 });
    await cancelBooking(ctx, as(client), bookingId);
    const [row] = await database.db
      .select({ cancelOutcome: bookings.cancelOutcome })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    expect(row?.cancelOutcome).toMatchObject({ canceller: "client", coolingOff: false });
  });

  it("an artist's cancellation returns everything paid", async () => {
    const { artist, bookingId } = await requested(3);
    await acceptBooking(ctx, artistActor(artist), bookingId);
    await cancelBooking(ctx, artistActor(artist), { bookingId, reason: "Ill" });
    const [row] = await database.db
      .select({ cancelOutcome: bookings.cancelOutcome })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    expect(row?.cancelOutcome).toMatchObject({ canceller: "artist", keptPaise: 0 });
    expect(row?.cancelOutcome?.refundPaise).toBe(row?.cancelOutcome?.paidPaise);
  });
});

describe("mails", () => {
  it("tells the client of a quote and the artist of changes asked", async () => {
    const { artist, client, bookingId } = await requested();
    sent.length = 0;
    await sendQuote(ctx, artistActor(artist), { bookingId, quote: quote() });
    await askForChanges(ctx, as(client), {
      bookingId,
      change: {
        message: "Less, please",
        wishedTotal: null,
        wishedDepositPercent: null,
        wishedPolicy: null,
      },
    });
    expect(sent.map((m) => m.subject)).toEqual([
      expect.stringContaining("sent you a quote"),
      expect.stringContaining("asked for changes"),
    ]);
    expect(sent[0]?.text).toContain("Total: ₹35,000.50");
  });
});

describe("a client-verified gig", () => {
  it("carries its booking's agreement hash as evidence in its credential", async () => {
    const { artist, client, bookingId } = await requested(12);
    await acceptBooking(ctx, artistActor(artist), bookingId);
    const [agreement] = await agreementsOf(bookingId);
    // The gig took place: its date is past, and the job completed it.
    await database.db
      .update(bookings)
      .set({ eventDate: addDays(todayIn(env.timeZone), -1), status: "completed" })
      .where(eq(bookings.id, bookingId));
    await rateBooking(ctx, as(client), { bookingId, rating: 5, review: null });
    const [session] = await queryRows<{ id: string }>(
      database.db,
      sql`SELECT id FROM music_sessions WHERE booking_id = ${bookingId}`,
    );
    const claims = await sessionClaimsOf(database.db, session?.id ?? "", env.appUrl);
    expect(claims?.evidence).toContainEqual({
      url: new URL(`/bookings/${bookingId}/agreement`, env.appUrl).href,
      name: "Signed booking agreement",
      mediaType: "application/json",
      sha256: agreement?.sha256,
    });
  });
});

describe("the agreement mail", () => {
  it("goes to both parties once, with the hash, a link and the PDF that carries agreement.json", async () => {
    const { artist, client, bookingId } = await requested();
    await acceptBooking(ctx, artistActor(artist), bookingId);
    const [agreement] = await agreementsOf(bookingId);
    sent.length = 0;
    await runDueJobs(database.db, agreementJobs(ctx));
    await runDueJobs(database.db, agreementJobs(ctx));
    // Other tests' agreements are mailed by the same runs: this booking's two are the ones here.
    const mails = sent.filter(
      (m) =>
        m.subject.startsWith("Your booking agreement") &&
        m.text.includes(`/bookings/${bookingId}/agreement`),
    );
    expect(mails.map((m) => m.to).sort()).toEqual([artist.user.email, client.email].sort());
    for (const mail of mails) {
      expect(mail.text).toContain(agreement?.sha256);
      expect(mail.text).toContain(`/bookings/${bookingId}/agreement`);
      const pdf = mail.attachments?.[0];
      expect(pdf?.contentType).toBe("application/pdf");
      expect(pdf?.content.subarray(0, 5).toString()).toBe("%PDF-");
      // The JSON rides inside the PDF as an embedded file, byte for byte.
      expect(pdf?.content.includes(Buffer.from("agreement.json"))).toBe(true);
    }
  });
});

describe("the booking lists", () => {
  it("say a quote is open while it is, for the client to answer", async () => {
    const { artist, client, bookingId } = await requested();
    const listed = async () =>
      (await listClientBookings(ctx, as(client))).find((b) => b.id === bookingId)?.quoteOpen;
    expect(await listed()).toBe(false);
    const offer = await sendQuote(ctx, artistActor(artist), { bookingId, quote: quote() });
    expect(await listed()).toBe(true);
    expect(
      (await listArtistBookings(ctx, artistActor(artist))).find((b) => b.id === bookingId)
        ?.quoteOpen,
    ).toBe(true);
    await acceptQuote(ctx, as(client), { bookingId, sha256: offer.sha256 });
    expect(await listed()).toBe(false);
  });
});
