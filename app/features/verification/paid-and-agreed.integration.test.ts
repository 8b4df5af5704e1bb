import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, isNull } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedInActor } from "~/lib/actor";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mailer } from "~/lib/mail.server";
import { agreements, bookings, credentials, jobs, musicSessions, offers } from "~db/schema";
import { createEstablishedArtist, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { rateBooking } from "../bookings/booking-ratings.server";
import { drainCredentialQueue, getIssuerDidDocument } from "../credentials/issuance.server";
import { checkCv } from "../credentials/verify.server";
import { CREDENTIAL_REFRESH_QUEUE } from "./credential-queue.server";
import { sessionLevel } from "./verification-levels.server";

/**
 * Paid & agreed (docs/decisions/056): a gig agreed and paid through GigLedger reaches the top
 * rung only once its payout is released; a directly paid one never does; the credential's evidence
 * names the agreement by its hash and says the payment was released, never how much.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dataDir = mkdtempSync(path.join(tmpdir(), "gl-paid-"));
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: dataDir,
  BETTER_AUTH_SECRET: "x".repeat(40),
});
const mailer: Mailer = { send: async () => {}, outbox: async () => [] };
let ctx: Parameters<typeof rateBooking>[0];
const today = todayIn(env.timeZone);
/** An agreed price no hash, id or date here is likely to contain. */
const TOTAL_RUPEES = 73_519;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = { db: database.db, env, logger: pino({ level: "silent" }), mailer };
});
afterAll(async () => {
  await database?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

const as = (user: { id: string }): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId: null,
});

/**
 * A completed gig of a new artist under an agreement in force, paid through GigLedger or directly
 * as told, rated by its client (which logs its session) unless `rated` is false.
 */
async function agreedGig(
  paidThrough: "gigledger" | "direct",
  { rated = true }: { rated?: boolean } = {},
) {
  const owner = await createEstablishedArtist(
    { db: database.db },
    { name: `Paid ${randomUUID().slice(0, 6)}`, location: "Mumbai", daysOld: 400 },
  );
  const client = await createUser(database.db);
  const [booking] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: owner.artistId,
      clientUserId: client.id,
      eventDate: addDays(today, -3),
      startTime: "19:30",
      durationHours: 2,
      venue: "Bandra West, Mumbai",
      eventType: "Private Event",
      totalAmount: TOTAL_RUPEES,
      status: "completed",
    })
    .returning({ id: bookings.id });
  const bookingId = booking!.id;
  const [offer] = await database.db
    .insert(offers)
    .values({
      bookingId,
      version: 1,
      kind: "quote",
      status: "accepted",
      totalPaise: TOTAL_RUPEES * 100,
      canonical: "{}",
      sha256: randomBytes(32).toString("hex"),
    })
    .returning({ id: offers.id });
  const sha256 = randomBytes(32).toString("hex");
  await database.db.insert(agreements).values({
    bookingId,
    offerId: offer!.id,
    json: "{}",
    sha256,
    paidThrough,
    frozenAt: new Date(Date.now() - 10 * 86_400_000),
  });
  const rate = async () => {
    await rateBooking(ctx, as(client), { bookingId, rating: 5, review: null });
    const [session] = await database.db
      .select({ id: musicSessions.id })
      .from(musicSessions)
      .where(eq(musicSessions.bookingId, bookingId));
    return session!.id;
  };
  return { bookingId, sha256, sessionId: rated ? await rate() : "", rate };
}

/** What releaseInBooks (payments) writes on the booking when the payout is released. */
const releasePayout = (bookingId: string, at: Date) =>
  database.db.update(bookings).set({ payoutReleasedAt: at }).where(eq(bookings.id, bookingId));

const refreshQueued = async (sessionId: string) =>
  (
    await database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          eq(jobs.queue, CREDENTIAL_REFRESH_QUEUE),
          eq(jobs.key, sessionId),
          isNull(jobs.failedAt),
        ),
      )
  ).length > 0;

async function liveCredential(sessionId: string) {
  const [row] = await database.db
    .select({ level: credentials.level, document: credentials.document })
    .from(credentials)
    .where(and(eq(credentials.sessionId, sessionId), isNull(credentials.revokedAt)));
  return row ? { level: row.level, document: JSON.parse(row.document) as SignedCredential } : null;
}
type SignedCredential = {
  evidence?: {
    id: string;
    name: string;
    description: string;
    narrative?: string;
    digestMultibase: string;
  }[];
  credentialSubject: { result: { value: string }[] };
};

describe("Paid & agreed", () => {
  it("a gig paid through GigLedger becomes Paid & agreed only once its payout is released, and its credential follows", async () => {
    const { bookingId, sessionId, sha256 } = await agreedGig("gigledger");
    // Paid but not yet paid out: the client's rating is the highest rung.
    expect((await sessionLevel(database, sessionId)).level).toBe("client_verified");
    await drainCredentialQueue({ db: database.db, env });
    const before = await liveCredential(sessionId);
    expect(before?.level).toBe("Client-verified");
    expect(before?.document.evidence?.map((e) => e.name)).toEqual(["Signed booking agreement"]);

    const releasedAt = new Date(Date.now() - 3_600_000);
    await releasePayout(bookingId, releasedAt);
    // The release itself queued the session's credential (migration 0022's trigger).
    expect(await refreshQueued(sessionId)).toBe(true);
    const level = await sessionLevel(database, sessionId);
    expect(level).toEqual({
      level: "paid_and_agreed",
      verifiers: [{ name: "the client", artistSlug: null, at: releasedAt }],
      reachedAt: releasedAt,
    });

    const drained = await drainCredentialQueue({ db: database.db, env });
    expect(drained).toMatchObject({ signed: 1, revoked: 1 });
    const after = await liveCredential(sessionId);
    expect(after?.level).toBe("Paid & agreed");
    expect(after?.document.credentialSubject.result[0]?.value).toBe("Paid & agreed");
    const [evidence, ...others] = after?.document.evidence ?? [];
    expect(others).toEqual([]);
    expect(evidence).toMatchObject({
      id: new URL(`/bookings/${bookingId}/agreement`, env.appUrl).href,
      name: "Paid through GigLedger",
      description: `SHA-256 ${sha256}`,
    });
    expect(evidence?.narrative).toMatch(/^Payment: released\./);
    // The fact of payment, never the amount.
    const text = JSON.stringify(after?.document);
    expect(text).not.toContain(String(TOTAL_RUPEES));
    expect(text).not.toMatch(/amount|paise|₹|INR|price/i);

    // The row keeps its stored method; the signed credential checks out with the app's keys.
    const [row] = await database.db
      .select({ isVerified: musicSessions.isVerified, method: musicSessions.verificationMethod })
      .from(musicSessions)
      .where(eq(musicSessions.id, sessionId));
    expect(row).toEqual({ isVerified: true, method: "client_booking" });
    const did = await getIssuerDidDocument({ db: database.db, env });
    const check = await checkCv(after?.document, {
      resolveDid: async (asked) => (asked === did.id ? did : null),
      loadStatusList: async () => null,
    });
    expect(check.allAuthentic).toBe(true);
    expect(check.credentials[0]?.level).toBe("Paid & agreed");
  });

  it("a directly paid gig never becomes Paid & agreed, even with a release time", async () => {
    const { bookingId, sessionId } = await agreedGig("direct");
    await releasePayout(bookingId, new Date());
    expect((await sessionLevel(database, sessionId)).level).toBe("client_verified");
    await drainCredentialQueue({ db: database.db, env });
    const credential = await liveCredential(sessionId);
    expect(credential?.level).toBe("Client-verified");
    expect(credential?.document.evidence?.map((e) => e.name)).toEqual(["Signed booking agreement"]);
  });

  it("a booking rated after its payout was released is Paid & agreed at once", async () => {
    const gig = await agreedGig("gigledger", { rated: false });
    // No session yet: the release has nothing to queue.
    await releasePayout(gig.bookingId, new Date(Date.now() - 60_000));
    const sessionId = await gig.rate();
    expect((await sessionLevel(database, sessionId)).level).toBe("paid_and_agreed");
    await drainCredentialQueue({ db: database.db, env });
    expect((await liveCredential(sessionId))?.level).toBe("Paid & agreed");
  });

  it("a cancelled booking is no gig: a release on it does not count, and the change re-queues", async () => {
    const { bookingId, sessionId } = await agreedGig("gigledger");
    await releasePayout(bookingId, new Date());
    expect((await sessionLevel(database, sessionId)).level).toBe("paid_and_agreed");
    await drainCredentialQueue({ db: database.db, env });
    await database.db
      .update(bookings)
      .set({ status: "cancelled" })
      .where(eq(bookings.id, bookingId));
    expect(await refreshQueued(sessionId)).toBe(true);
    expect((await sessionLevel(database, sessionId)).level).toBe("client_verified");
  });

  it("a superseded agreement paid through GigLedger does not count; only the one in force does", async () => {
    const { bookingId, sessionId } = await agreedGig("direct");
    // An earlier agreement said GigLedger; the one in force says direct.
    const [offer] = await database.db
      .insert(offers)
      .values({
        bookingId,
        version: 2,
        kind: "quote",
        status: "superseded",
        totalPaise: 100,
        canonical: "{}",
        sha256: randomBytes(32).toString("hex"),
      })
      .returning({ id: offers.id });
    await database.db.insert(agreements).values({
      bookingId,
      offerId: offer!.id,
      status: "superseded",
      json: "{}",
      sha256: randomBytes(32).toString("hex"),
      paidThrough: "gigledger",
      frozenAt: new Date(Date.now() - 20 * 86_400_000),
      endedAt: new Date(Date.now() - 10 * 86_400_000),
    });
    await releasePayout(bookingId, new Date());
    expect((await sessionLevel(database, sessionId)).level).toBe("client_verified");
  });
});
