import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn, wallClockIn } from "~/lib/dates";
import { artistProfiles, bookings } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

/**
 * Booking pages as a browser without JavaScript uses them: plain form posts, the answer is the
 * page itself (errors and what was typed) or a redirect to a page that says what happened.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let artist: Person;
let client: Person;
let artistId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  artist = await signedInUser(app, database.db, "Asha");
  client = await signedInUser(app, database.db, "Ravi");
  artistId = await addArtistProfile({ db: database.db }, artist.id, { name: "Asha Quartet" });
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const page = async (path: string, cookie: string) => {
  const res = await app.request(path, { headers: { Cookie: cookie } });
  return { status: res.status, html: await res.text() };
};

/** Buttons rendered `disabled` would wait for JavaScript that never comes. */
function expectNoDisabledButton(html: string) {
  const disabled = [...html.matchAll(/<button\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => /\sdisabled(=|\s|>|$)/.test(tag));
  expect(disabled).toEqual([]);
}

/** The booking form's own action, as the page renders it. */
async function formAction() {
  const { status, html } = await page("/bookings?artist=asha-quartet", client.cookie);
  expect(status).toBe(200);
  expectNoDisabledButton(html);
  const action = /<form[^>]*action="(\/bookings\?artist=[^"]+)"/.exec(html)?.[1];
  expect(action).toBeTruthy();
  return action as string;
}

/** Follows a redirect like a browser: with the session and the toast cookie it was given. */
async function follow(res: Response, cookie: string) {
  expect(res.status).toBe(302);
  const toast = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const location = res.headers.get("location") ?? "";
  const next = await app.request(location, {
    headers: { Cookie: [cookie, toast].filter(Boolean).join("; ") },
  });
  return { location, status: next.status, html: await next.text() };
}

const typed = {
  durationHours: "3",
  venue: "The Blue Room",
  eventType: "Private Event",
  startTime: "19:30",
  message: "Evening reception, 80 guests.",
};

describe("the booking request without JavaScript", () => {
  it("an invalid or past date comes back to the same page with its error and everything typed", async () => {
    const action = await formAction();
    const yesterday = addDays(todayIn(app.env.timeZone), -1);
    for (const [eventDate, error] of [
      ["2026-13-01", "Please choose a valid date"],
      ["", "Please choose a date"],
      [yesterday, "Please choose today or a later date."],
    ] as const) {
      const res = await postForm(app, action, { artistId, eventDate, ...typed }, client.cookie);
      expect(res.status, eventDate).toBe(400);
      const html = await res.text();
      expect(html).toContain("Book Asha Quartet");
      expect(html).toContain(error);
      expect(html).toMatch(
        /name="venue"[^>]*value="The Blue Room"|value="The Blue Room"[^>]*name="venue"/,
      );
      expect(html).toMatch(/name="startTime"[^>]*value="19:30"|value="19:30"[^>]*name="startTime"/);
      expect(html).toContain("Evening reception, 80 guests.</textarea>");
      expect(html).toMatch(
        /<option selected="" value="Private Event">|<option[^>]*selected[^>]*>Private Event</,
      );
      expectNoDisabledButton(html);
    }
  });

  it("a valid request ends on the new booking's page, which confirms it", async () => {
    const action = await formAction();
    const eventDate = addDays(todayIn(app.env.timeZone), 9);
    const res = await postForm(app, action, { artistId, eventDate, ...typed }, client.cookie);
    const next = await follow(res, client.cookie);
    expect(next.location).toMatch(/^\/bookings\/[0-9a-f-]{36}$/);
    expect(next.status).toBe(200);
    expect(next.html).toContain("Booking Request Sent!");
    expect(next.html).toContain("Booking Details");
    expect(next.html).toContain(">Pending<");
    expect(next.html).toContain("at 7:30 PM IST");
    expect(next.html).toContain("3 hours");
  });

  it("a second pending request for the same date is refused with a link to the first", async () => {
    const action = await formAction();
    const eventDate = addDays(todayIn(app.env.timeZone), 30);
    const first = await postForm(app, action, { artistId, eventDate, ...typed }, client.cookie);
    const firstId = (first.headers.get("location") ?? "").split("/").at(-1);
    const again = await postForm(
      app,
      action,
      { artistId, eventDate, ...typed, venue: "Another Hall" },
      client.cookie,
    );
    expect(again.status).toBe(409);
    const html = await again.text();
    expect(html).toContain("You already have a pending request to Asha Quartet for ");
    expect(html).toMatch(
      new RegExp(`<a[^>]*href="/bookings/${firstId}"[^>]*>View your request</a>`),
    );
    expect(html).toContain('value="Another Hall"');
    const rows = await database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.eventDate, eventDate));
    expect(rows).toHaveLength(1);
  });

  it("a start time already passed on the artist's today is refused on the start time field", async () => {
    // A zone where it is now between 01:00 and 21:59, so an hour earlier is still today there.
    const zone = [
      "Asia/Kolkata",
      "Europe/London",
      "America/Los_Angeles",
      "Pacific/Kiritimati",
    ].find((z) => {
      const hour = Number(wallClockIn(new Date(), z).time.slice(0, 2));
      return hour >= 1 && hour <= 21;
    }) as string;
    const other = await signedInUser(app, database.db, "Tara");
    const otherId = await addArtistProfile({ db: database.db }, other.id, { name: "Tara Trio" });
    await database.db
      .update(artistProfiles)
      .set({ timeZone: zone })
      .where(eq(artistProfiles.id, otherId));
    const past = wallClockIn(new Date(Date.now() - 3_600_000), zone).time;
    const res = await postForm(
      app,
      `/bookings?artist=${otherId}`,
      { artistId: otherId, eventDate: todayIn(zone), ...typed, startTime: past },
      client.cookie,
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("This start time has already passed today. Please choose a later time.");
    expect(html).toContain(`value="${past}"`);
  });
});

describe("the booking page without JavaScript", () => {
  let bookingId: string;
  beforeAll(async () => {
    const eventDate = addDays(todayIn(app.env.timeZone), 40);
    const res = await postForm(
      app,
      `/bookings?artist=${artistId}`,
      { artistId, eventDate, ...typed },
      client.cookie,
    );
    bookingId = (res.headers.get("location") ?? "").split("/").at(-1) as string;
  });

  it("renders Send (and every other button) enabled, and a message posts and shows on the page", async () => {
    const before = await page(`/bookings/${bookingId}`, client.cookie);
    expectNoDisabledButton(before.html);
    expect(before.html).toContain('aria-label="Send message"');
    // Without JavaScript the form asks for the page back, not for the message alone.
    expect(before.html).not.toContain('name="stay"');
    const sent = await postForm(
      app,
      `/bookings/${bookingId}`,
      { intent: "message", message: "Can we start at 8 instead?" },
      client.cookie,
    );
    const next = await follow(sent, client.cookie);
    expect(next.location).toBe(`/bookings/${bookingId}#messages`);
    expect(next.html).toContain("Can we start at 8 instead?");
    // The artist's confirmation comes with the page.
    const reply = await postForm(
      app,
      `/bookings/${bookingId}`,
      { intent: "message", message: "Sure." },
      artist.cookie,
    );
    const artistPage = await follow(reply, artist.cookie);
    expect(artistPage.html).toContain("Message Sent");
    expect(artistPage.html).toContain("Sure.");
    // An empty message comes back with its error, still on the page.
    const empty = await postForm(
      app,
      `/bookings/${bookingId}`,
      { intent: "message", message: "   " },
      client.cookie,
    );
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please write a message");
  });

  it("decline asks for an optional reason in a disclosure; a too long one comes back with its error", async () => {
    const artistView = await page(`/bookings/${bookingId}`, artist.cookie);
    expectNoDisabledButton(artistView.html);
    expect(artistView.html).toMatch(/<details[^>]*>\s*<summary[^>]*>Decline<\/summary>/);
    expect(artistView.html).toContain('name="reason"');
    const long = await postForm(
      app,
      `/bookings/${bookingId}`,
      { intent: "decline", reason: "x".repeat(501) },
      artist.cookie,
    );
    expect(long.status).toBe(400);
    const html = await long.text();
    expect(html).toContain("The reason can be at most 500 characters");
    expect(html).toMatch(/<details[^>]*open=""/);
    const declined = await postForm(
      app,
      `/bookings/${bookingId}`,
      { intent: "decline", reason: "We're booked for a festival." },
      artist.cookie,
    );
    const next = await follow(declined, artist.cookie);
    expect(next.html).toContain("Booking Declined");
    const clientView = await page(`/bookings/${bookingId}`, client.cookie);
    expect(clientView.html).toContain(">Declined<");
    expect(clientView.html).toContain("Reason: We&#x27;re booked for a festival.");
  });
});
