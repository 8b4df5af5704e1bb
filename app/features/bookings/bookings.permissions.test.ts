import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { availability, bookingMessages, bookings } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let artist: Person;
let client: Person;
let otherClient: Person;
let otherArtist: Person;
let stranger: Person;
let artistId: string;
let bookingId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  artist = await signedInUser(app, database.db, "Artist");
  client = await signedInUser(app, database.db, "Client");
  otherClient = await signedInUser(app, database.db, "Other");
  otherArtist = await signedInUser(app, database.db, "Rival");
  stranger = await signedInUser(app, database.db, "Stranger");
  artistId = await addArtistProfile({ db: database.db }, artist.id);
  await addArtistProfile({ db: database.db }, otherArtist.id);
  const today = todayIn(app.env.timeZone);
  const res = await postForm(
    app,
    "/bookings",
    {
      artistId,
      eventDate: addDays(today, 9),
      durationHours: "2",
      venue: "Hall",
      eventType: "Wedding",
      message: "Hi",
    },
    client.cookie,
  );
  expect(res.status).toBe(302);
  const [booking] = await database.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(eq(bookings.clientUserId, client.id));
  bookingId = booking!.id;
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

async function snapshot() {
  const [b] = await database.db.select().from(bookings).where(eq(bookings.id, bookingId));
  const messages = await database.db
    .select({ id: bookingMessages.id })
    .from(bookingMessages)
    .where(eq(bookingMessages.bookingId, bookingId));
  const days = await database.db
    .select()
    .from(availability)
    .where(eq(availability.artistProfileId, artistId));
  return { b, messages: messages.length, days };
}

describe("every booking endpoint, for people who are not its parties", () => {
  const outsiders = () =>
    [
      ["a stranger", stranger.cookie],
      ["the other client", otherClient.cookie],
      ["another artist", otherArtist.cookie],
    ] as const;

  it("reads nothing: details, messages and the event stream answer 404", async () => {
    await postForm(
      app,
      `/bookings/${bookingId}`,
      { intent: "message", message: "Secret plan" },
      client.cookie,
    );
    for (const [, cookie] of outsiders()) {
      const page = await app.request(`/bookings/${bookingId}`, { headers: { Cookie: cookie } });
      expect(page.status).toBe(404);
      expect(await page.text()).not.toContain("Secret plan");
      const data = await app.request(`/bookings/${bookingId}.data`, {
        headers: { Cookie: cookie },
      });
      expect(await data.text()).not.toContain("Secret plan");
      expect(
        (await app.request(`/bookings/${bookingId}/events`, { headers: { Cookie: cookie } }))
          .status,
      ).toBe(404);
      expect(
        await (await app.request("/client-bookings", { headers: { Cookie: cookie } })).text(),
      ).not.toContain("Hall");
    }
    const signedOut = await app.request(`/bookings/${bookingId}`, { redirect: "manual" });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    expect(
      (await app.request(`/bookings/${bookingId}/events`, { redirect: "manual" })).status,
    ).toBe(302);
  });

  it("changes nothing: accept, decline, cancel, rate, message", async () => {
    const before = await snapshot();
    for (const intent of ["accept", "decline", "cancel", "rate", "message"]) {
      const fields = { intent, rating: "5", message: "Let me in" };
      for (const [, cookie] of outsiders()) {
        expect((await postForm(app, `/bookings/${bookingId}`, fields, cookie)).status).toBe(404);
      }
      expect((await postForm(app, `/bookings/${bookingId}`, fields)).status).toBe(302);
    }
    // The client cannot accept their own request, the artist cannot cancel or rate it.
    expect(
      (await postForm(app, `/bookings/${bookingId}`, { intent: "accept" }, client.cookie)).status,
    ).toBe(409);
    expect(
      (await postForm(app, `/bookings/${bookingId}`, { intent: "cancel" }, artist.cookie)).status,
    ).toBe(409);
    expect(
      (
        await postForm(
          app,
          `/bookings/${bookingId}`,
          { intent: "rate", rating: "5" },
          artist.cookie,
        )
      ).status,
    ).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it("availability belongs to its artist: others can't change it", async () => {
    const before = await snapshot();
    const date = addDays(todayIn(app.env.timeZone), 12);
    expect(
      (await postForm(app, "/availability", { intent: "set", date, status: "available" })).status,
    ).toBe(302);
    // Another artist's POST changes only their own calendar, a non-artist's nothing.
    expect(
      (
        await postForm(
          app,
          "/availability",
          { intent: "set", date, status: "available" },
          stranger.cookie,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await postForm(
          app,
          "/availability",
          { intent: "set", date, status: "available" },
          otherArtist.cookie,
        )
      ).status,
    ).toBe(200);
    expect((await snapshot()).days).toEqual(before.days);
    expect(
      (
        await postForm(
          app,
          "/availability",
          { intent: "set", date, status: "maybe" },
          artist.cookie,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await postForm(
          app,
          "/availability",
          { intent: "set", date: addDays(date, -40), status: "booked" },
          artist.cookie,
        )
      ).status,
    ).toBe(400);
  });

  it("refuses bad booking input with clear messages and stores nothing", async () => {
    const count = async () => (await database.db.select({ id: bookings.id }).from(bookings)).length;
    const before = await count();
    const res = await postForm(
      app,
      "/bookings",
      {
        artistId,
        eventDate: "not-a-date",
        durationHours: "13",
        venue: " ",
        eventType: "Rave",
        totalAmount: "1",
      },
      client.cookie,
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const message of [
      "Please choose a valid date",
      "Duration can be at most 12 hours",
      "Venue is required",
      "Please choose an event type",
    ]) {
      expect(html).toContain(message);
    }
    // Signed out: sent to sign in, with the form's address to come back to; nothing stored.
    const signedOut = await postForm(app, "/bookings", {
      artistId,
      eventDate: "2030-01-01",
      durationHours: "2",
      venue: "x",
    });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toMatch(
      /^\/auth\?reason=book&redirectTo=%2Fbookings%3F/,
    );
    const self = await postForm(
      app,
      "/bookings",
      { artistId, eventDate: "2030-01-01", durationHours: "2", venue: "x" },
      artist.cookie,
    );
    expect(self.status).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe("hostile requests to the booking, message and calendar endpoints get a 4xx, never a 5xx", () => {
  const countBookings = async () =>
    (await database.db.select({ id: bookings.id }).from(bookings)).length;
  const booking = (fields: Record<string, string>) => ({
    artistId,
    eventDate: addDays(todayIn(app.env.timeZone), 15),
    durationHours: "2",
    venue: "Hall",
    eventType: "Wedding",
    ...fields,
  });

  it("refuses impossible dates as invalid, on the date field, before any query", async () => {
    const before = { bookings: await countBookings(), days: (await snapshot()).days };
    for (const date of ["9999-99-99", "2026-13-01", "2027-02-30"]) {
      const set = await postForm(
        app,
        "/availability",
        { intent: "set", date, status: "unavailable" },
        artist.cookie,
      );
      expect(set.status).toBe(400);
      expect(await set.text()).toContain("Please choose a valid date");
      const clear = await postForm(app, "/availability", { intent: "clear", date }, artist.cookie);
      expect(clear.status).toBe(400);
      const request = await postForm(
        app,
        `/bookings?artist=${artistId}`,
        booking({ eventDate: date }),
        client.cookie,
      );
      expect(request.status).toBe(400);
      expect(await request.text()).toContain("Please choose a valid date");
    }
    expect(await countBookings()).toBe(before.bookings);
    expect((await snapshot()).days).toEqual(before.days);
  });

  it("answers a NUL byte in any field or parameter with a 4xx", async () => {
    const before = await snapshot();
    const count = await countBookings();
    const nul = "abc\u0000def";
    const posts: [string, Record<string, string>, string][] = [
      ["/bookings", booking({ venue: nul }), client.cookie],
      ["/bookings", booking({ message: nul }), client.cookie],
      ["/bookings", booking({ artistId: nul }), client.cookie],
      ["/bookings", booking({ eventDate: nul }), client.cookie],
      [`/bookings/${bookingId}`, { intent: "message", message: nul }, client.cookie],
      [`/bookings/${bookingId}`, { intent: "rate", rating: "5", review: nul }, client.cookie],
      [`/bookings/${bookingId}`, { intent: nul }, artist.cookie],
      [`/bookings/${bookingId}`, { intent: "accept", returnTo: `/x${nul}` }, artist.cookie],
      [
        "/availability",
        {
          intent: "set",
          date: addDays(todayIn(app.env.timeZone), 3),
          status: "available",
          notes: nul,
        },
        artist.cookie,
      ],
      ["/availability", { intent: "set", date: nul, status: "available" }, artist.cookie],
    ];
    for (const [path, fields, cookie] of posts) {
      const res = await postForm(app, path, fields, cookie);
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${JSON.stringify(fields)}`).toBeLessThan(500);
    }
    for (const path of [
      "/bookings?artist=abc%00def",
      "/bookings?artist=%00",
      "/bookings/abc%00def",
      `/bookings/${bookingId}%00`,
      "/bookings/abc%00def/events",
    ]) {
      const res = await app.request(path, { headers: { Cookie: client.cookie } });
      expect(res.status, path).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
    expect(await countBookings()).toBe(count);
  });

  it("answers a body that is not a form with 415 or 400", async () => {
    const before = await snapshot();
    const send = (path: string, cookie: string, contentType: string, body: string) =>
      app.request(path, {
        method: "POST",
        body,
        headers: { "Content-Type": contentType, Origin: app.env.appUrl.origin, Cookie: cookie },
        redirect: "manual",
      });
    const targets: [string, string][] = [
      ["/bookings", client.cookie],
      [`/bookings/${bookingId}`, artist.cookie],
      ["/availability", artist.cookie],
    ];
    for (const [path, cookie] of targets) {
      const json = await send(path, cookie, "application/json", '{"intent":"accept"}');
      expect(json.status, `${path} JSON`).toBe(415);
      const noBoundary = await send(path, cookie, "multipart/form-data", "--x\r\n");
      expect(noBoundary.status, `${path} multipart without a boundary`).toBe(400);
      const truncated = await send(
        path,
        cookie,
        "multipart/form-data; boundary=XYZ",
        '--XYZ\r\nContent-Disposition: form-data; name="intent"\r\n\r\nacc',
      );
      expect(truncated.status, `${path} truncated multipart`).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });
});
