import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import ICAL from "ical.js";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { searchArtists } from "~/features/artists/discovery.server";
import {
  getAvailability,
  getBusyDays,
  setAvailability,
} from "~/features/availability/availability.server";
import { shownDays } from "~/features/availability/shown-days";
import { createBookingRequest } from "~/features/bookings/booking-requests.server";
import { acceptBooking, declineBooking } from "~/features/bookings/bookings.server";
import type { SignedInActor } from "~/lib/actor";
import { systemClock } from "~/lib/clock.server";
import { addDays, formatLongDate, todayIn } from "~/lib/dates";
import { generateSecretKeyMultibase } from "~/lib/ed25519-key.server";
import { loadEnv } from "~/lib/env.server";
import { runDueJobs } from "~/lib/jobs.server";
import type { Mailer } from "~/lib/mail.server";
import { REFUSALS } from "~/lib/safe-fetch.server";
import { queryRows } from "~db/client";
import { externalCalendars } from "~db/schema";
import { artistActor, createArtist, createUser } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { discoveryQuery } from "../../../tests/support/query-plans";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { NOT_A_CALENDAR } from "./busy-days";
import { bookingIcs, getFeedUrl, renderFeed, resetFeed } from "./feeds.server";
import {
  addImportedCalendar,
  calendarJobs,
  getImportedBusyDays,
  listImportedCalendars,
  queueDueCalendars,
  READ_CALENDAR_QUEUE,
  removeImportedCalendar,
  syncImportedCalendar,
} from "./imports.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const mailer: Mailer = { send: async () => {}, outbox: async () => [] };
const envOf = (vars: Record<string, string> = {}) =>
  loadEnv({
    NODE_ENV: "test",
    DATA_DIR: path.join(tmpdir(), "gigledger-calendars-test"),
    BETTER_AUTH_SECRET: "x".repeat(40),
    ...vars,
  });
const env = envOf();
// A public app needs a credential signing key to start; any valid one will do here.
const publicEnv = envOf({
  APP_URL: "https://gigledger.example",
  MAIL_TRANSPORT: "log",
  CREDENTIAL_SIGNING_KEY: generateSecretKeyMultibase(),
});
const ctxWith = (e = env) => ({
  db: database.db,
  env: e,
  logger: pino({ level: "silent" }),
  mailer,
  clock: systemClock,
  realtime: { publish: async () => {}, subscribe: () => () => {}, close: async () => {} },
});
const ctx = () => ctxWith(env);
/** Waiting read jobs of one calendar. */
const readJobs = async (calendarId: string) =>
  (
    await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM jobs WHERE queue = ${READ_CALENDAR_QUEUE} AND key = ${calendarId}`,
    )
  )[0]?.n;
const as = (user: { id: string }): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId: null,
});
const tokenOf = (url: string) => /\/calendar\/([^/]+)\.ics$/.exec(url)?.[1] ?? "";

// ─── A calendar server of the test's own, on loopback ──────────────────────────────────────────

let server: Server;
let base: string;
const served = new Map<string, string>();

function icsWith(dates: string[]) {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Test//EN",
    ...dates.flatMap((d, i) => [
      "BEGIN:VEVENT",
      `UID:busy-${i}`,
      "SUMMARY:Secret surgery appointment",
      "DESCRIPTION:Private details nobody else should read",
      `DTSTART;VALUE=DATE:${d.replaceAll("-", "")}`,
      "END:VEVENT",
    ]),
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

beforeAll(async () => {
  database = await createTestDatabase();
  server = createServer((req, res) => {
    const body = served.get((req.url ?? "").split("?")[0] ?? "");
    if (req.url === "/slow.ics") {
      res.writeHead(200, { "content-type": "text/calendar" });
      res.write("BEGIN:VCALENDAR\r\n");
      setTimeout(() => res.end("END:VCALENDAR\r\n"), 1_500);
      return;
    }
    if (req.url === "/redirect-to-metadata.ics") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      res.end();
      return;
    }
    if (body === undefined) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/calendar" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await database?.dispose();
});

const query = discoveryQuery;
/** 'Sync now' as if a minute had passed since the calendar was last read. */
const later = { minIntervalMs: 0 };

describe("calendars in", () => {
  it("a busy day blocks requests and date search; the next sync frees it; no event text is kept", async () => {
    const location = `Synctown ${Date.now()}`;
    const artist = await createArtist({ db: database.db }, { location });
    const client = await createUser(database.db);
    const day = addDays(todayIn(env.timeZone), 14);
    served.set(`/${artist.artistId}.ics`, icsWith([day]));
    const added = await addImportedCalendar(ctx(), artistActor(artist), {
      url: `${base}/${artist.artistId}.ics`,
    });
    expect(added).toEqual({ ok: true, busyDays: 1 });
    const [listed] = await listImportedCalendars(ctx(), artistActor(artist));
    expect(listed).toMatchObject({ host: new URL(base).host, lastError: null, busyDays: 1 });
    expect(listed?.lastSyncedAt).toBeInstanceOf(Date);

    const request = () =>
      createBookingRequest(ctx(), as(client), {
        artistId: artist.artistId,
        eventDate: day,
        startTime: null,
        durationHours: 2,
        venue: "Town Hall",
        eventType: "Wedding",
        message: null,
      });
    await expect(request()).rejects.toMatchObject({ reason: "date_not_available" });
    const found = await searchArtists(ctx(), null, query({ location, date: day }));
    expect(found.artists).toEqual([]);

    // Nothing of the events is stored anywhere: only the date.
    const dump = await database.db.execute(
      sql`SELECT row_to_json(t)::text AS row FROM imported_busy_days t`,
    );
    expect(JSON.stringify(dump)).not.toMatch(/surgery|Private details/);

    // The event goes from the calendar: the next sync frees the day (read a minute later).
    served.set(`/${artist.artistId}.ics`, icsWith([]));
    expect(
      await syncImportedCalendar(ctx(), artistActor(artist), { calendarId: listed!.id }, later),
    ).toEqual({ ok: true, busyDays: 0 });
    expect((await searchArtists(ctx(), null, query({ location, date: day }))).artists).toHaveLength(
      1,
    );
    await expect(request()).resolves.toMatchObject({ artistName: artist.name });
  });

  it("an imported busy day shows as unavailable: to the artist with its calendar, to others as any other; it can't be marked available", async () => {
    const artist = await createArtist({ db: database.db });
    const today = todayIn(env.timeZone);
    const [marked, imported, free] = [4, 5, 6].map((n) => addDays(today, n)) as [
      string,
      string,
      string,
    ];
    // The artist marked all three available; their other calendar is busy on the first two.
    for (const date of [marked, imported, free])
      await setAvailability(ctx(), artistActor(artist), {
        date,
        status: "available",
        notes: "Call me",
      });
    served.set(`/shown-${artist.artistId}.ics`, icsWith([marked, imported, addDays(today, 7)]));
    await addImportedCalendar(ctx(), artistActor(artist), {
      url: `${base}/shown-${artist.artistId}.ics`,
    });
    // …and then tried to mark the busy one available again.
    await expect(
      setAvailability(ctx(), artistActor(artist), {
        date: imported,
        status: "available",
        notes: null,
      }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: `${formatLongDate(imported)} is busy in one of your other calendars, so it can't be marked available. Free it there, or remove that calendar.`,
    });
    const days = { artistId: artist.artistId, from: today, to: addDays(today, 10) };
    const [marks, busy, busyIn] = await Promise.all([
      getAvailability(ctx(), null, days),
      getBusyDays(ctx(), null, days),
      getImportedBusyDays(ctx(), artistActor(artist), days),
    ]);
    const host = new URL(base).host;
    expect(busyIn).toEqual({
      [marked]: [host],
      [imported]: [host],
      [addDays(today, 7)]: [host],
    });
    // Others: never green where a request is refused, and nothing of the calendar.
    expect(shownDays(marks, busy)).toEqual([
      { date: marked, status: "unavailable", notes: null },
      { date: imported, status: "unavailable", notes: null },
      { date: free, status: "available", notes: "Call me" },
      { date: addDays(today, 7), status: "unavailable", notes: null, unmarked: true },
    ]);
    // The artist: the same, with the calendar each busy day comes from.
    expect(shownDays(marks, busy, busyIn).map((d) => [d.date, d.status, d.busyIn])).toEqual([
      [marked, "unavailable", [host]],
      [imported, "unavailable", [host]],
      [free, "available", undefined],
      [addDays(today, 7), "unavailable", [host]],
    ]);
    // Nobody else's calendars: another artist's imported days are not theirs to see.
    const other = await createArtist({ db: database.db });
    expect(await getImportedBusyDays(ctx(), artistActor(other), days)).toEqual({});
  });

  it("a repeating event no date can match is skipped, and the calendar's other days still count", async () => {
    const artist = await createArtist({ db: database.db });
    const day = addDays(todayIn(env.timeZone), 9);
    // 30 February, every day: ical.js alone looks for it forever (it once froze the server).
    const never = [
      "BEGIN:VEVENT",
      "UID:never",
      "DTSTART:20260101T100000Z",
      "DTEND:20260101T110000Z",
      "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
      "END:VEVENT",
    ];
    const ics = icsWith([day]).replace("END:VCALENDAR", [...never, "END:VCALENDAR"].join("\r\n"));
    served.set(`/${artist.artistId}-never.ics`, ics);
    const added = await addImportedCalendar(ctx(), artistActor(artist), {
      url: `${base}/${artist.artistId}-never.ics`,
    });
    expect(added).toEqual({ ok: true, busyDays: 1 });
  });

  it("keeps the last busy days and shows a plain error when a calendar can't be read", async () => {
    const artist = await createArtist({ db: database.db });
    const day = addDays(todayIn(env.timeZone), 5);
    served.set(`/flaky-${artist.artistId}.ics`, icsWith([day]));
    await addImportedCalendar(ctx(), artistActor(artist), {
      url: `${base}/flaky-${artist.artistId}.ics`,
    });
    served.set(`/flaky-${artist.artistId}.ics`, "<html>Please sign in</html>");
    const [calendar] = await listImportedCalendars(ctx(), artistActor(artist));
    expect(
      await syncImportedCalendar(ctx(), artistActor(artist), { calendarId: calendar!.id }, later),
    ).toEqual({ ok: false, error: NOT_A_CALENDAR });
    const [after] = await listImportedCalendars(ctx(), artistActor(artist));
    expect(after).toMatchObject({ lastError: NOT_A_CALENDAR, busyDays: 1 });
    // Removing it frees the day.
    await removeImportedCalendar(ctx(), artistActor(artist), { calendarId: calendar!.id });
    expect(await listImportedCalendars(ctx(), artistActor(artist))).toEqual([]);
  });

  it("refuses loopback, redirects to metadata, slow and big answers with clear messages", async () => {
    const artist = await createArtist({ db: database.db });
    served.set("/ok.ics", icsWith([]));
    const add = (url: string, c = ctx(), options = {}) =>
      addImportedCalendar(c, artistActor(artist), { url }, options);
    // A public app never reads loopback: the same local server is refused.
    expect(await add(`${base}/ok.ics`, ctxWith(publicEnv))).toEqual({
      ok: false,
      error: REFUSALS.privateAddress,
    });
    expect(await add(`${base}/redirect-to-metadata.ics`)).toEqual({
      ok: false,
      error: REFUSALS.privateAddress,
    });
    expect(await add(`${base}/slow.ics`, ctx(), { timeoutMs: 500 })).toEqual({
      ok: false,
      error: REFUSALS.tooSlow,
    });
    served.set("/big.ics", `BEGIN:VCALENDAR\r\n${"X-PAD:x\r\n".repeat(20_000)}END:VCALENDAR\r\n`);
    expect(await add(`${base}/big.ics`, ctx(), { maxBytes: 100_000 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The calendar is larger than/),
    });
    expect(await add(`${base}/ok.ics?again`)).toEqual({ ok: true, busyDays: 0 });
    await expect(add(`${base}/ok.ics?more`)).rejects.toMatchObject({
      code: "conflict",
      message: "You can add at most 5 calendars.",
    });
    const listed = await listImportedCalendars(ctx(), artistActor(artist));
    expect(listed.map((c) => c.lastError)).toEqual([
      REFUSALS.privateAddress,
      REFUSALS.privateAddress,
      REFUSALS.tooSlow,
      expect.stringMatching(/larger than/),
      null,
    ]);
  });

  it("the scheduled sync queues each due calendar once, then reads it outside a transaction", async () => {
    const artist = await createArtist({ db: database.db });
    const day = addDays(todayIn(env.timeZone), 3);
    served.set(`/job-${artist.artistId}.ics`, icsWith([day]));
    const [added] = await database.db
      .insert(externalCalendars)
      .values({ artistProfileId: artist.artistId, url: `${base}/job-${artist.artistId}.ics` })
      .returning({ id: externalCalendars.id });
    const queued = await database.db.transaction((tx) => queueDueCalendars(tx, 1_000));
    expect(queued).toContain(added!.id);
    // Queued this round: nobody queues it again for 15 minutes.
    expect(await database.db.transaction((tx) => queueDueCalendars(tx, 1_000))).not.toContain(
      added!.id,
    );
    expect(await readJobs(added!.id)).toBe(1);
    await runDueJobs(database.db, calendarJobs(ctx()));
    expect(await readJobs(added!.id)).toBe(0);
    const [row] = await listImportedCalendars(ctx(), artistActor(artist));
    expect(row?.busyDays).toBe(1);
  });

  it("is only for artists, and only for their own calendars", async () => {
    const artist = await createArtist({ db: database.db });
    const other = await createArtist({ db: database.db });
    const client = await createUser(database.db);
    served.set("/mine.ics", icsWith([]));
    await addImportedCalendar(ctx(), artistActor(artist), { url: `${base}/mine.ics` });
    await expect(
      addImportedCalendar(ctx(), artistActor(artist), { url: `${base}/mine.ics` }),
    ).rejects.toMatchObject({ code: "conflict", message: "This calendar is already added." });
    const [mine] = await listImportedCalendars(ctx(), artistActor(artist));
    await expect(
      syncImportedCalendar(ctx(), artistActor(other), { calendarId: mine!.id }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      removeImportedCalendar(ctx(), artistActor(other), { calendarId: mine!.id }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      addImportedCalendar(ctx(), as(client), { url: `${base}/mine.ics` }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await listImportedCalendars(ctx(), as(client))).toEqual([]);
  });
});

describe("calendar feeds out", () => {
  it("an artist's feed follows the bookings, with a growing SEQUENCE; a reset link 404s the old one", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await createUser(database.db, { firstName: "Priya", lastName: "Shah" });
    const actor = artistActor(artist);
    expect(await getFeedUrl(ctx(), actor, "artist")).toBeNull();
    const url = await resetFeed(ctx(), actor, "artist");
    expect(await getFeedUrl(ctx(), actor, "artist")).toBe(url);
    expect(tokenOf(url)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const day = addDays(todayIn(env.timeZone), 20);
    const one = await createBookingRequest(ctx(), as(client), {
      artistId: artist.artistId,
      eventDate: day,
      startTime: "18:30",
      durationHours: 2.5,
      venue: "Blue Frog",
      eventType: "Wedding",
      message: null,
    });
    const two = await createBookingRequest(ctx(), as(client), {
      artistId: artist.artistId,
      eventDate: addDays(day, 1),
      startTime: null,
      durationHours: 2,
      venue: "Hall",
      eventType: "Corporate Event",
      message: null,
    });
    const eventsIn = async (token: string) => {
      const text = await renderFeed(ctx(), token);
      if (!text) return null;
      const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
      return Object.fromEntries(
        root.getAllSubcomponents("vevent").map((c) => [
          String(c.getFirstPropertyValue("uid")),
          {
            status: c.getFirstPropertyValue("status"),
            sequence: c.getFirstPropertyValue("sequence"),
            summary: c.getFirstPropertyValue("summary"),
          },
        ]),
      );
    };
    const before = await eventsIn(tokenOf(url));
    expect(before?.[`booking-${one.id}@gigledger`]).toEqual({
      status: "TENTATIVE",
      sequence: 0,
      summary: "Wedding for Priya Shah",
    });
    await acceptBooking(ctx(), actor, one.id);
    await declineBooking(ctx(), actor, two.id);
    const after = await eventsIn(tokenOf(url));
    expect(after?.[`booking-${one.id}@gigledger`]).toMatchObject({
      status: "CONFIRMED",
      sequence: 1,
    });
    expect(after?.[`booking-${two.id}@gigledger`]).toMatchObject({
      status: "CANCELLED",
      sequence: 1,
    });

    const fresh = await resetFeed(ctx(), actor, "artist");
    expect(fresh).not.toBe(url);
    expect(await renderFeed(ctx(), tokenOf(url))).toBeNull();
    expect(await eventsIn(tokenOf(fresh))).toEqual(after);

    // The client's own feed, and 'Add to calendar' for the two parties only.
    const clientFeed = await resetFeed(ctx(), as(client), "client");
    const clientEvents = await eventsIn(tokenOf(clientFeed));
    expect(clientEvents?.[`booking-${one.id}@gigledger`]?.summary).toBe(`${artist.name}: Wedding`);
    expect(await bookingIcs(ctx(), as(client), one.id)).toMatch(/BEGIN:VEVENT/);
    expect(await bookingIcs(ctx(), actor, one.id)).toMatch(/BEGIN:VEVENT/);
    const stranger = await createUser(database.db);
    expect(await bookingIcs(ctx(), as(stranger), one.id)).toBeNull();
    expect(await bookingIcs(ctx(), null, one.id)).toBeNull();
    expect(await bookingIcs(ctx(), as(client), "not-a-uuid")).toBeNull();
  });

  it("a client has no artist feed", async () => {
    const client = await createUser(database.db);
    await expect(resetFeed(ctx(), as(client), "artist")).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await getFeedUrl(ctx(), as(client), "artist")).toBeNull();
  });
});

describe("the calendar addresses over HTTP", () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp(database);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  it("serves a feed as text/calendar, and answers 404 for every other token", async () => {
    const artist = await createArtist({ db: database.db });
    const url = await resetFeed(ctxWith(app.env), artistActor(artist), "artist");
    const ok = await app.request(new URL(url).pathname);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(await ok.text()).toMatch(/^BEGIN:VCALENDAR\r\n[\s\S]*END:VCALENDAR\r\n$/);
    for (const path of [
      "/calendar/x.ics",
      `/calendar/${"A".repeat(43)}.ics`,
      `/calendar/${tokenOf(url)}`,
      `/calendar/${tokenOf(url)}.ics%00`,
      "/calendar/%00",
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
  });

  it("'Add to calendar' is a download for the booking's parties and 404 for anyone else", async () => {
    const artist = await createArtist({ db: database.db });
    const client = await signedInUser(app, database.db, "Client");
    const booking = await createBookingRequest(ctxWith(app.env), as(client), {
      artistId: artist.artistId,
      eventDate: addDays(todayIn(env.timeZone), 9),
      startTime: "20:00",
      durationHours: 2,
      venue: "Hall",
      eventType: "Wedding",
      message: null,
    });
    const mine = await app.request(`/bookings/${booking.id}/calendar.ics`, {
      headers: { cookie: client.cookie },
    });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-disposition")).toMatch(/attachment; filename=/);
    expect(await mine.text()).toMatch(/UID:booking-/);
    for (const [path, cookie] of [
      [`/bookings/${booking.id}/calendar.ics`, ""],
      ["/bookings/not-a-uuid/calendar.ics", client.cookie],
      ["/bookings/%00/calendar.ics", client.cookie],
    ] as const) {
      const res = await app.request(path, { headers: cookie ? { cookie } : {} });
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
  });

  it("the calendar forms answer bad input with a toast and no change, never a 5xx", async () => {
    const user = await signedInUser(app, database.db, "Artist");
    const post = (body: string, type = "application/x-www-form-urlencoded") =>
      app.request("/calendars", {
        method: "POST",
        body,
        headers: { cookie: user.cookie, "content-type": type, origin: app.env.appUrl.origin },
        redirect: "manual",
      });
    for (const body of [
      "intent=add-calendar&url=ftp%3A%2F%2Fexample.com%2Fx.ics",
      "intent=add-calendar&url=",
      "intent=add-calendar&url=%00",
      "intent=sync-calendar&calendarId=nope",
      "intent=reset-feed&kind=admin",
      "intent=explode",
    ]) {
      const res = await post(body);
      expect(res.status, body).toBeLessThan(500);
      await res.arrayBuffer();
    }
    expect((await post("{}", "application/json")).status).toBeLessThan(500);
    // A client without an artist profile has no schedule feed: not found.
    const res = await post("intent=reset-feed&kind=artist");
    expect(res.status).toBe(404);
    const calendars = await database.db
      .select()
      .from(externalCalendars)
      .where(eq(externalCalendars.url, "ftp://example.com/x.ics"));
    expect(calendars).toEqual([]);
  });
});
