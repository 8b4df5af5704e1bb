import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { bookingMessages, bookings } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

/**
 * What the booking pages promise, as their HTML says it: 'Add to calendar' only where there is an
 * event, every time in the artist's zone with the zone's name, and a signed-out visitor's form
 * waiting for them through sign-in.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let artist: Person;
let client: Person;
let artistId: string;
const ZONE = "America/New_York";

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  artist = await signedInUser(app, database.db, "Nora");
  client = await signedInUser(app, database.db, "Omar");
  artistId = await addArtistProfile({ db: database.db }, artist.id, {
    name: "Nora Brass Band",
    location: "New York NY",
    timeZone: ZONE,
  });
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const page = async (path: string, cookie?: string) => {
  const res = await app.request(path, { headers: cookie ? { Cookie: cookie } : {} });
  return { status: res.status, html: await res.text(), location: res.headers.get("location") };
};

let nextDay = 10;
/** A booking of Omar's with Nora, as the booking flow leaves it in `status`. */
async function booking(
  status: "pending" | "confirmed" | "completed" | "rejected" | "cancelled",
  extra: Partial<typeof bookings.$inferInsert> = {},
) {
  const today = todayIn(ZONE);
  const [row] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: artistId,
      clientUserId: client.id,
      eventDate: status === "completed" ? addDays(today, -nextDay++) : addDays(today, nextDay++),
      startTime: "19:00",
      durationHours: 2,
      venue: "Blue Note",
      eventType: "Live Show",
      status,
      totalAmount: 4000,
      ...(status === "cancelled" ? { cancelledBy: "client" as const } : {}),
      ...extra,
    })
    .returning({ id: bookings.id });
  return row?.id ?? "";
}

describe("'Add to calendar'", () => {
  it.each([
    ["pending", true],
    ["confirmed", true],
    ["completed", true],
    ["rejected", false],
    ["cancelled", false],
  ] as const)("on a %s booking: %s", async (status, offered) => {
    const id = await booking(status);
    for (const who of [client, artist]) {
      const { status: code, html } = await page(`/bookings/${id}`, who.cookie);
      expect(code).toBe(200);
      expect(html.includes(`href="/bookings/${id}/calendar.ics"`)).toBe(offered);
      expect(html.includes("Add to calendar")).toBe(offered);
    }
  });
});

describe("times on a booking page, in the artist's zone with its name", () => {
  // 03:30 UTC on March 1 is still February 28 in New York (and already 9:00 AM in India).
  const at = new Date("2026-03-01T03:30:00Z");

  it("says when it was booked on the artist's date, not the UTC one", async () => {
    const id = await booking("pending", { createdAt: at });
    const { html } = await page(`/bookings/${id}`, client.cookie);
    expect(html).toMatch(/Booked on (<!-- -->)?February 28, 2026, 10:30 PM EST/);
    expect(html).not.toContain("March 1, 2026");
  });

  it("writes each message's time with the zone, the same for both parties", async () => {
    const id = await booking("pending");
    await database.db.insert(bookingMessages).values({
      bookingId: id,
      senderUserId: artist.id,
      message: "Soundcheck at six?",
      createdAt: at,
    });
    for (const who of [client, artist]) {
      const { html } = await page(`/bookings/${id}`, who.cookie);
      expect(html).toContain(
        '<time dateTime="2026-03-01T03:30:00.000Z">Feb 28, 10:30 PM EST</time>',
      );
    }
  });

  it("labels the form's start time as the artist's, in the zone of the chosen date", async () => {
    const year = Number(todayIn(ZONE).slice(0, 4)) + 1;
    for (const [date, zone] of [
      [`${year}-01-15`, "EST"],
      [`${year}-07-15`, "EDT"],
    ] as const) {
      const { html } = await page(`/bookings?artist=${artistId}&date=${date}`, client.cookie);
      expect(html).toContain(`Start Time (optional, artist&#x27;s time, ${zone})`);
    }
  });
});

describe("a signed-out visitor's booking form", () => {
  it("is filled in first, then waits through sign-in with the date, hours and the rest", async () => {
    const date = addDays(todayIn(ZONE), 33);
    const form = await page(`/bookings?artist=${artistId}&date=${date}`);
    expect(form.status).toBe(200);
    expect(form.html).toContain("Next you sign in, or create an account");
    expect(form.html).toMatch(new RegExp(`name="eventDate"[^>]*value="${date}"`));

    const before = await database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.artistProfileId, artistId));
    const sent = await postForm(app, `/bookings?artist=${artistId}`, {
      artistId,
      eventDate: date,
      startTime: "20:30",
      durationHours: "3.5",
      venue: "Rooftop, 5th Ave",
      eventType: "Wedding",
      message: "Sixty guests.",
    });
    expect(sent.status).toBe(302);
    const location = new URL(sent.headers.get("location") ?? "", app.env.appUrl);
    expect(location.pathname).toBe("/auth");
    expect(location.searchParams.get("reason")).toBe("book");
    const back = location.searchParams.get("redirectTo") ?? "";
    expect(back).toMatch(/^\/bookings\?/);
    // Nothing is stored before the visitor has signed in.
    const after = await database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.artistProfileId, artistId));
    expect(after).toHaveLength(before.length);

    // Signed in, the return address is the form with what was chosen.
    const { html } = await page(back, client.cookie);
    expect(html).toMatch(new RegExp(`name="eventDate"[^>]*value="${date}"`));
    expect(html).toMatch(
      /name="durationHours"[^>]*value="3.5"|value="3.5"[^>]*name="durationHours"/,
    );
    expect(html).toMatch(/name="startTime"[^>]*value="20:30"|value="20:30"[^>]*name="startTime"/);
    expect(html).toContain('value="Rooftop, 5th Ave"');
    expect(html).toMatch(/<option selected="" value="Wedding">|<option[^>]*selected[^>]*>Wedding</);
    expect(html).not.toContain("Next you sign in");
  });

  it("with a mistake in it answers with the errors first, before any sign-in", async () => {
    const res = await postForm(app, `/bookings?artist=${artistId}`, {
      artistId,
      eventDate: addDays(todayIn(ZONE), 5),
      durationHours: "2",
      venue: " ",
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Venue is required");
  });
});

describe("substitutes on the page", () => {
  it("always come with a search for the day, also when nobody is suggested", async () => {
    const id = await booking("cancelled", {
      cancelledBy: "artist",
      cancelReason: "Ill.",
      confirmedAt: new Date(),
    });
    const [row] = await database.db
      .select({ eventDate: bookings.eventDate })
      .from(bookings)
      .where(eq(bookings.id, id));
    const { html } = await page(`/bookings/${id}`, client.cookie);
    expect(html).toContain(`href="/artist-discovery?date=${row?.eventDate}"`);
    expect(html).toContain("Search all artists free on");
    // The artist is not offered them.
    expect((await page(`/bookings/${id}`, artist.cookie)).html).not.toContain(
      "Search all artists free on",
    );
  });
});
