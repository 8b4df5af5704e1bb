import { tmpdir } from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBookingRequest } from "~/features/bookings/booking-requests.server";
import { BOOKING_REFUSALS } from "~/features/bookings/bookings.constants";
import { publishedTermsSha256 } from "~/features/terms/published-terms.server";
import type { SignedInActor } from "~/lib/actor";
import { systemClock } from "~/lib/clock.server";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { Problem } from "~/lib/problem";
import { artistProfiles, bookings, offers } from "~db/schema";
import { createArtist, createUser } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { createArtistProfile, getOwnArtistProfile, updateArtistProfile } from "./artists.server";

// An artist's published booking terms (deposit, balance due, cancellation policy): chosen on the
// profile form, shown on the profile and the request form, and the offer every request makes.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
const sent: Mail[] = [];
const mailer: Mailer = { send: async (m) => void sent.push(m), outbox: async () => [] };
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-booking-terms-test"),
  BETTER_AUTH_SECRET: "x".repeat(40),
});
let ctx: Parameters<typeof createBookingRequest>[0];

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  ctx = { db: database.db, env, logger: pino({ level: "silent" }), mailer, clock: systemClock };
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const profileFields = (overrides: Record<string, string> = {}) => ({
  artistName: "Terms Tester",
  genre: "Jazz",
  bio: "Plays late.",
  location: "Mumbai",
  experience: "5 years",
  instruments: "Piano",
  hourlyRate: "2000",
  instagram: "",
  youtube: "",
  facebook: "",
  ...overrides,
});

const actorOf = (userId: string): SignedInActor => ({
  id: userId,
  roles: [],
  artistProfileId: null,
});

async function termsOf(userId: string) {
  const profile = await getOwnArtistProfile({ db: database.db }, actorOf(userId));
  if (!profile) throw new Error("no profile");
  const { depositBps, balanceDueDays, cancellationPolicy } = profile;
  return { depositBps, balanceDueDays, cancellationPolicy };
}

async function refusal(promise: Promise<unknown>) {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: unknown) => e,
  );
}

describe("saving booking terms", () => {
  it("a new profile without terms in the post gets the defaults: 30%, 7 days, moderate", async () => {
    const user = await signedInUser(app, database.db, "Defaults");
    const res = await postForm(app, "/profile-setup", profileFields(), user.cookie);
    expect(res.status).toBe(302);
    expect(await termsOf(user.id)).toEqual({
      depositBps: 3000,
      balanceDueDays: 7,
      cancellationPolicy: "moderate",
    });
  });

  it("a new profile keeps the terms chosen on the form", async () => {
    const user = await signedInUser(app, database.db, "Chooser");
    const fields = profileFields({
      artistName: "Chooser",
      depositBps: "0",
      balanceDueDays: "0",
      cancellationPolicy: "flexible",
    });
    expect((await postForm(app, "/profile-setup", fields, user.cookie)).status).toBe(302);
    expect(await termsOf(user.id)).toEqual({
      depositBps: 0,
      balanceDueDays: 0,
      cancellationPolicy: "flexible",
    });
  });

  it("an edit saves new terms, and the form shows them selected", async () => {
    const user = await signedInUser(app, database.db, "Editor");
    await createArtist({ db: database.db }, { user: { id: user.id } });
    const fields = profileFields({
      depositBps: "5500",
      balanceDueDays: "28",
      cancellationPolicy: "strict",
    });
    expect((await postForm(app, "/artist-profile/edit", fields, user.cookie)).status).toBe(302);
    expect(await termsOf(user.id)).toEqual({
      depositBps: 5500,
      balanceDueDays: 28,
      cancellationPolicy: "strict",
    });
    const html = await (
      await app.request("/artist-profile/edit", { headers: { Cookie: user.cookie } })
    ).text();
    const chosen = (pattern: RegExp) => pattern.exec(html)?.[0] ?? "";
    expect(chosen(/<option value="5500"[^>]*>/)).toContain('selected=""');
    expect(chosen(/<option value="28"[^>]*>/)).toContain('selected=""');
    expect(chosen(/<input[^>]*value="strict"[^>]*>/)).toContain('checked=""');
    expect(chosen(/<input[^>]*value="moderate"[^>]*>/)).not.toContain("checked");
  });

  it("an edit that leaves the terms out of its post keeps the stored ones", async () => {
    const user = await signedInUser(app, database.db, "Keeper");
    await createArtist(
      { db: database.db },
      {
        user: { id: user.id },
        depositBps: 10_000,
        balanceDueDays: 14,
        cancellationPolicy: "strict",
      },
    );
    const res = await postForm(
      app,
      "/artist-profile/edit",
      profileFields({ artistName: "Keeper Renamed" }),
      user.cookie,
    );
    expect(res.status).toBe(302);
    expect(await termsOf(user.id)).toEqual({
      depositBps: 10_000,
      balanceDueDays: 14,
      cancellationPolicy: "strict",
    });
  });
});

describe("hostile booking terms", () => {
  const HOSTILE: [field: string, value: string, message: string][] = [
    ...["500", "1200", "10500", "-1000", "3000.0", "30%", "", " ", "1e4", "0x0BB8", "99999999"].map(
      (v): [string, string, string] => [
        "depositBps",
        v,
        "Choose a deposit between 10% and 100%, or no deposit.",
      ],
    ),
    ...["1", "5", "-7", "30", "", "7 days", "07.5"].map((v): [string, string, string] => [
      "balanceDueDays",
      v,
      "Choose when the balance is due.",
    ]),
    ...["Strict", "lenient", "", "toString", "__proto__", "moderate "].map(
      (v): [string, string, string] => ["cancellationPolicy", v, "Choose a cancellation policy."],
    ),
  ];

  it("the edit refuses each with a 400 beside its field, and changes nothing", async () => {
    const user = await signedInUser(app, database.db, "Hostile");
    await createArtist({ db: database.db }, { user: { id: user.id } });
    const before = await termsOf(user.id);
    const failures: string[] = [];
    for (const [field, value, message] of HOSTILE) {
      const res = await postForm(
        app,
        "/artist-profile/edit",
        profileFields({ artistName: "Changed", [field]: value }),
        user.cookie,
      );
      const text = await res.text();
      if (res.status !== 400 || !text.includes(message))
        failures.push(`${field}=${JSON.stringify(value)} → ${res.status}`);
    }
    expect(failures).toEqual([]);
    expect(await termsOf(user.id)).toEqual(before);
    const [row] = await database.db
      .select({ name: artistProfiles.artistName })
      .from(artistProfiles)
      .where(eq(artistProfiles.userId, user.id));
    expect(row?.name).not.toBe("Changed");
  });

  it("a field sent twice is refused too", async () => {
    const user = await signedInUser(app, database.db, "Twice");
    await createArtist({ db: database.db }, { user: { id: user.id } });
    const body = new URLSearchParams(profileFields({ artistName: "Changed" }));
    body.append("depositBps", "3000");
    body.append("depositBps", "5000");
    const res = await app.request("/artist-profile/edit", {
      method: "POST",
      body,
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: app.env.appUrl.origin,
        Cookie: user.cookie,
      },
      redirect: "manual",
    });
    expect(res.status).toBe(400);
    expect(await termsOf(user.id)).toMatchObject({ depositBps: 3000 });
  });

  it("profile set-up refuses them with a 400 and creates no profile", async () => {
    const user = await signedInUser(app, database.db, "HostileNew");
    const res = await postForm(
      app,
      "/profile-setup",
      profileFields({ artistName: "Never", cancellationPolicy: "lenient" }),
      user.cookie,
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Choose a cancellation policy.");
    const [n] = await database.db
      .select({ n: count() })
      .from(artistProfiles)
      .where(eq(artistProfiles.userId, user.id));
    expect(n?.n).toBe(0);
  });

  it("the domain functions refuse them for a caller that skips the form", async () => {
    const user = await createUser(database.db);
    const actor = actorOf(user.id);
    const input = {
      artistName: "Direct",
      genre: "Jazz",
      bio: "Bio",
      location: "Pune",
      experience: "1 year",
      instruments: "Drums",
      hourlyRate: null,
    };
    const created = await refusal(
      createArtistProfile({ db: database.db }, actor, { ...input, depositBps: 1234 }),
    );
    expect(created).toBeInstanceOf(Problem);
    expect(created).toMatchObject({
      code: "invalid",
      fieldErrors: { depositBps: "Choose a deposit between 10% and 100%, or no deposit." },
    });
    expect(await getOwnArtistProfile({ db: database.db }, actor)).toBeNull();

    await createArtistProfile({ db: database.db }, actor, input);
    const updated = await refusal(
      updateArtistProfile({ db: database.db }, actor, {
        ...input,
        isAvailable: true,
        balanceDueDays: 2,
      }),
    );
    expect(updated).toMatchObject({
      code: "invalid",
      fieldErrors: { balanceDueDays: "Choose when the balance is due." },
    });
    expect(await termsOf(user.id)).toEqual({
      depositBps: 3000,
      balanceDueDays: 7,
      cancellationPolicy: "moderate",
    });
  });
});

describe("the terms on the profile and the request form", () => {
  it("the profile's card and the form's box say them, and the form posts their hash", async () => {
    const artist = await createArtist(
      { db: database.db },
      { depositBps: 2500, balanceDueDays: 3, cancellationPolicy: "flexible" },
    );
    const [row] = await database.db
      .select({ slug: artistProfiles.slug })
      .from(artistProfiles)
      .where(eq(artistProfiles.id, artist.artistId));
    const profile = await (await app.request(`/artist/${row?.slug}`)).text();
    for (const text of [
      "Booking terms",
      "25% deposit when the booking is agreed",
      "Balance due 3 days before the event",
      "Cancellation policy: Flexible",
      "48 hours to 7 days before: the client pays 25% of the total",
      "If the artist cancels: everything paid is returned",
      "Cancelled within 24 hours of agreeing, and at least 7 days before the event: nothing to pay",
    ])
      expect(profile, text).toContain(text);

    const client = await signedInUser(app, database.db, "Reader");
    const form = await (
      await app.request(`/bookings?artist=${artist.artistId}`, {
        headers: { Cookie: client.cookie },
      })
    ).text();
    const sha256 = publishedTermsSha256({
      depositBps: 2500,
      balanceDueDays: 3,
      policy: "flexible",
    });
    expect(form).toContain(`name="termsSha256" value="${sha256}"`);
    expect(form).toContain("By sending this request you offer to book on these terms.");
    expect(form).toContain("Less than 48 hours before: the client pays 50% of the total");
  });
});

describe("a request is an offer on the terms the client read", () => {
  const requestTo = (artistId: string, termsSha256: string) => ({
    artistId,
    eventDate: addDays(todayIn(env.timeZone), 20),
    startTime: null,
    durationHours: 2,
    venue: "Town Hall",
    eventType: "Wedding" as const,
    message: null,
    termsSha256,
  });

  async function storedFor(artistId: string) {
    const rows = await database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.artistProfileId, artistId));
    const offered = rows.length
      ? await database.db
          .select({ n: count() })
          .from(offers)
          .innerJoin(bookings, eq(bookings.id, offers.bookingId))
          .where(eq(bookings.artistProfileId, artistId))
      : [{ n: 0 }];
    return { bookings: rows.length, offers: offered[0]?.n ?? 0 };
  }

  it("terms changed after the form was read: 409, nothing stored; the current hash books", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    const read = publishedTermsSha256({ depositBps: 3000, balanceDueDays: 7, policy: "moderate" });
    // The artist changes their terms while the client reads the form.
    await database.db
      .update(artistProfiles)
      .set({ cancellationPolicy: "strict" })
      .where(eq(artistProfiles.id, artist.artistId));

    const refused = await refusal(
      createBookingRequest(ctx, actorOf(client.id), requestTo(artist.artistId, read)),
    );
    expect(refused).toBeInstanceOf(Problem);
    expect(refused).toMatchObject({ code: "conflict", reason: BOOKING_REFUSALS.termsChanged });
    expect((refused as Problem).message).toContain("changed their booking terms");
    expect(await storedFor(artist.artistId)).toEqual({ bookings: 0, offers: 0 });

    const current = publishedTermsSha256({
      depositBps: 3000,
      balanceDueDays: 7,
      policy: "strict",
    });
    const booked = await createBookingRequest(
      ctx,
      actorOf(client.id),
      requestTo(artist.artistId, current),
    );
    expect(booked.id).toBeTruthy();
    expect(await storedFor(artist.artistId)).toEqual({ bookings: 1, offers: 1 });
    const [offer] = await database.db
      .select({ canonical: offers.canonical })
      .from(offers)
      .where(eq(offers.bookingId, booked.id));
    expect(JSON.parse(offer?.canonical ?? "{}")).toMatchObject({
      publishedTermsSha256: current,
      cancellation: { policy: "strict" },
      payments: { depositBps: 3000, balanceDueDays: 7 },
    });
  });

  it("through the page: a stale hash is answered 409 with the reason, and nothing is stored", async () => {
    const artist = await createArtist({ db: database.db }, { cancellationPolicy: "flexible" });
    const client = await signedInUser(app, database.db, "Late");
    const stale = publishedTermsSha256({ depositBps: 3000, balanceDueDays: 7, policy: "moderate" });
    const { termsSha256: _, ...fields } = requestTo(artist.artistId, stale);
    const res = await postForm(
      app,
      `/bookings?artist=${artist.artistId}`,
      {
        artistId: artist.artistId,
        eventDate: fields.eventDate,
        durationHours: "2",
        venue: fields.venue,
        eventType: fields.eventType,
        termsSha256: stale,
      },
      client.cookie,
    );
    expect(res.status).toBe(409);
    const text = await res.text();
    expect(text).toContain("changed their booking terms while you were reading them");
    expect(text).toContain("Terms Changed");
    expect(await storedFor(artist.artistId)).toEqual({ bookings: 0, offers: 0 });
    // The app compiles the booking page and what it imports on its first request here.
  }, 90_000);
});
