import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Clock, systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { enqueueJob, runDueJobs } from "~/lib/jobs.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { queryRows } from "~db/client";
import { bookings, musicSessions } from "~db/schema";
import { createArtist, createUser } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { bookingJobs, SETTLE_BOOKINGS_QUEUE } from "./booking-jobs.server";
import { rateBooking } from "./booking-ratings.server";
import { ratingLinkUrl } from "./rating-links.server";
import { RATING_MAILS_QUEUE } from "./rating-mails.server";

// Asking for the evidence (docs/product.md, "Ratings" and "E-mails"; decision 044): the client
// of a completed booking is asked to rate it, reminded after 3 and 10 days while it is unrated,
// rates it through the mail's link without signing in, and the artist is told; each mail once.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
const sent: Mail[] = [];
const mailer: Mailer = { send: async (m) => void sent.push(m), outbox: async () => [] };
let jobs: ReturnType<typeof bookingJobs>;
let ctx: { db: typeof database.db; env: typeof app.env; mailer: Mailer; clock: Clock };

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  ctx = { db: database.db, env: app.env, mailer, clock: systemClock };
  jobs = bookingJobs(ctx);
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

/** A confirmed booking whose date passed two days ago, not settled yet. */
async function pastBooking(client?: { id: string; email: string }) {
  const artist = await createArtist({ db: database.db });
  const who = client ?? (await createUser(database.db, { firstName: "Meera" }));
  const [row] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: artist.artistId,
      clientUserId: who.id,
      eventDate: addDays(todayIn("Asia/Kolkata"), -2),
      durationHours: 2,
      venue: "Blue Frog",
      eventType: "Live Show",
      totalAmount: 300,
      status: "confirmed",
    })
    .returning({ id: bookings.id });
  if (!row) throw new Error("no booking");
  return { artist, client: who, bookingId: row.id };
}

const settle = async () => {
  await enqueueJob(database.db, { queue: SETTLE_BOOKINGS_QUEUE, key: "scheduled" });
  await runDueJobs(database.db, jobs);
};

const mailsAbout = (artistName: string) =>
  sent.filter((m) => m.subject.includes(artistName) || m.text.includes(artistName));

const jobKeys = async (bookingId: string) =>
  (
    await queryRows<{ key: string }>(
      database.db,
      sql`SELECT key FROM jobs WHERE queue = ${RATING_MAILS_QUEUE} AND key LIKE ${`${bookingId}:%`} ORDER BY key`,
    )
  ).map((r) => r.key);

/** Time passes: the booking's reminder after `days` days is due now. */
const dueNow = (bookingId: string, days: 3 | 10) =>
  database.db.execute(
    sql`UPDATE jobs SET run_at = now() WHERE queue = ${RATING_MAILS_QUEUE} AND key = ${`${bookingId}:remind-${days}`}`,
  );

const rate = (bookingId: string, client: { id: string }, rating = 5) =>
  rateBooking(
    { ...ctx, logger: pino({ level: "silent" }) },
    { id: client.id, roles: [], artistProfileId: null },
    { bookingId, rating, review: "Lovely evening" },
  );

describe("asking the client to rate a completed booking", () => {
  it("settling adds the ask now and reminders after 3 and 10 days; the ask goes out once however often the jobs run", async () => {
    const { artist, client, bookingId } = await pastBooking();
    await enqueueJob(database.db, { queue: SETTLE_BOOKINGS_QUEUE, key: "scheduled" });
    // The settling job alone (the mails' queue not run yet): three mail jobs, keyed by the mail.
    await runDueJobs(database.db, jobs.slice(0, 1));
    expect(await jobKeys(bookingId)).toEqual([
      `${bookingId}:ask`,
      `${bookingId}:remind-10`,
      `${bookingId}:remind-3`,
    ]);
    const [reminder] = await queryRows<{ days: number }>(
      database.db,
      sql`SELECT round(extract(epoch FROM run_at - now()) / 86400)::int AS days FROM jobs
        WHERE key = ${`${bookingId}:remind-3`}`,
    );
    expect(reminder?.days).toBe(3);
    // Two runners at once, then the settling again and again: one mail.
    await Promise.all([runDueJobs(database.db, jobs), runDueJobs(database.db, jobs)]);
    await settle();
    await settle();
    const mails = mailsAbout(artist.name);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [client.email, `How was ${artist.name}?`],
    ]);
    const link = ratingLinkUrl(ctx, { id: bookingId, clientUserId: client.id });
    expect(mails[0]?.text).toContain(link.slice(0, link.lastIndexOf(".")).split(".")[0]);
    expect(mails[0]?.text).toContain("the link works without signing in for 30 days");
    expect(await jobKeys(bookingId)).toEqual([`${bookingId}:remind-10`, `${bookingId}:remind-3`]);
  });

  it("the same mail's job added again after it ran sends nothing more (sent_mails)", async () => {
    const { artist, bookingId } = await pastBooking();
    await settle();
    await enqueueJob(database.db, {
      queue: RATING_MAILS_QUEUE,
      key: `${bookingId}:ask`,
      payload: { bookingId, kind: "ask" },
    });
    await runDueJobs(database.db, jobs);
    expect(mailsAbout(artist.name)).toHaveLength(1);
  });

  it("reminds after 3 and 10 days while unrated, and never after the rating", async () => {
    const { artist, client, bookingId } = await pastBooking();
    await settle();
    await dueNow(bookingId, 3);
    await runDueJobs(database.db, jobs);
    expect(mailsAbout(artist.name).map((m) => m.subject)).toEqual([
      `How was ${artist.name}?`,
      `Reminder: how was ${artist.name}?`,
    ]);
    await rate(bookingId, client);
    await dueNow(bookingId, 10);
    await runDueJobs(database.db, jobs);
    expect(mailsAbout(artist.name).map((m) => m.subject)).toEqual([
      `How was ${artist.name}?`,
      `Reminder: how was ${artist.name}?`,
      "Meera User rated your booking",
    ]);
    expect(await jobKeys(bookingId)).toEqual([]);
  });

  it("both reminders go out to a client who never rates, each once", async () => {
    const { artist, bookingId } = await pastBooking();
    await settle();
    await dueNow(bookingId, 3);
    await dueNow(bookingId, 10);
    await runDueJobs(database.db, jobs);
    await runDueJobs(database.db, jobs);
    expect(mailsAbout(artist.name).map((m) => m.subject)).toEqual([
      `How was ${artist.name}?`,
      `Reminder: how was ${artist.name}?`,
      `Reminder: how was ${artist.name}?`,
    ]);
  });

  it("a booking rated before the settling job ran is never asked about; its artist is told once", async () => {
    const { artist, client, bookingId } = await pastBooking();
    await rate(bookingId, client, 4);
    await settle();
    await settle();
    const mails = mailsAbout(artist.name);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      [artist.user.email, "Meera User rated your booking"],
    ]);
    expect(mails[0]?.text).toContain("4 of 5");
    expect(mails[0]?.text).toContain("Their review:\nLovely evening");
    expect(mails[0]?.text).toContain(`/bookings/${bookingId}`);
  });

  it("a mail whose send fails is sent again by the job's retry, once", async () => {
    // What earlier tests left unsettled or unsent goes out first, with the working mailer: the
    // failing one below then meets this test's mail alone, whatever order the tests ran in.
    await settle();
    const { artist, bookingId } = await pastBooking();
    let fail = true;
    const flaky: Mailer = {
      send: async (m) => {
        if (fail) throw new Error("SMTP down");
        sent.push(m);
      },
      outbox: async () => [],
    };
    const errors: unknown[] = [];
    await enqueueJob(database.db, { queue: SETTLE_BOOKINGS_QUEUE, key: "scheduled" });
    await runDueJobs(database.db, bookingJobs({ ...ctx, mailer: flaky }), (e) => errors.push(e));
    expect(errors).toHaveLength(1);
    fail = false;
    await database.db.execute(
      sql`UPDATE jobs SET run_at = now() WHERE key = ${`${bookingId}:ask`}`,
    );
    await runDueJobs(database.db, bookingJobs({ ...ctx, mailer: flaky }));
    expect(mailsAbout(artist.name).map((m) => m.subject)).toEqual([`How was ${artist.name}?`]);
  });
});

describe("the one-click rating link (/rate/{token})", () => {
  const path = (url: string) => new URL(url).pathname;

  it("works signed out: shows the booking, rates it as its client, logs a Client-verified session, once", async () => {
    const { artist, client, bookingId } = await pastBooking();
    const url = path(ratingLinkUrl(ctx, { id: bookingId, clientUserId: client.id }));
    const page = await app.request(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Rate ${artist.name}`);
    expect(html).toContain("Live Show at Blue Frog");
    expect(html).not.toContain(client.email);
    const res = await postForm(app, url, { intent: "rate", rating: "5", review: "Superb" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(url);
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row).toMatchObject({ status: "completed", rating: 5, ratingGiven: true });
    const [session] = await database.db
      .select({ method: musicSessions.verificationMethod, verified: musicSessions.isVerified })
      .from(musicSessions)
      .where(eq(musicSessions.bookingId, bookingId));
    expect(session).toEqual({ method: "client_booking", verified: true });
    const after = await (await app.request(url)).text();
    expect(after).toContain(`You rated ${artist.name} 5 of 5`);
    const again = await postForm(app, url, { intent: "rate", rating: "1" });
    expect(again.status).toBe(409);
    const [still] = await database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(still?.rating).toBe(5);
  });

  it("after 30 days it asks to sign in and leads to the booking's page, which rates it; nothing changes", async () => {
    const client = await signedInUser(app, database.db, "Kiran");
    const { bookingId } = await pastBooking(client);
    const issued = new Date(Date.now() - 30 * 86_400_000 - 1000);
    const url = path(ratingLinkUrl(ctx, { id: bookingId, clientUserId: client.id }, issued));
    const page = await app.request(url);
    expect(page.status).toBe(410);
    const html = await page.text();
    expect(html).toContain("This rating link has expired.");
    expect(html).toContain(
      `/auth?redirectTo=${encodeURIComponent(`/bookings/${bookingId}`)}`.replaceAll("&", "&amp;"),
    );
    const post = await postForm(app, url, { intent: "rate", rating: "5" });
    expect(post.status).toBe(410);
    const signedIn = await app.request(url, { headers: { Cookie: client.cookie } });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`/bookings/${bookingId}`);
    const [row] = await database.db.select().from(bookings).where(eq(bookings.id, bookingId));
    expect(row).toMatchObject({ status: "confirmed", ratingGiven: false });
  });
});
