import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import { enqueueJob, runDueJobs } from "~/lib/jobs.server";
import { externalCalendars } from "~db/schema";
import { addArtistProfile, artistActor, createArtist } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { slowestHealthCheck } from "../../../tests/support/health-probe";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { MAX_CALENDARS_PER_ARTIST, SYNC_NOW_LIMIT } from "./calendars.constants";
import {
  addImportedCalendar,
  calendarJobs,
  FIND_DUE_CALENDARS_QUEUE,
  listImportedCalendars,
  syncImportedCalendar,
} from "./imports.server";

/**
 * Calendars that once hung, flooded or outran the server (found by an outside review), read from a calendar server
 * of the test's own on loopback. The file has a database of its own: its background-sync rounds
 * claim every due calendar in it.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let server: Server;
let base: string;
const served = new Map<string, string>();
/** How many times each path was asked for. */
const fetched = new Map<string, number>();

const newCtx = () => ({
  db: database.db,
  env: loadEnv({
    NODE_ENV: "test",
    DATA_DIR: path.join(tmpdir(), "gigledger-hostile-calendars"),
    BETTER_AUTH_SECRET: "x".repeat(40),
  }),
  logger: pino({ level: "silent" }),
});

const calendar = (...lines: string[]) => calendarOf(lines);
const calendarOf = (lines: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//EN", ...lines, "END:VCALENDAR", ""].join(
    "\r\n",
  );
const allDay = (uid: string, date: string) => [
  "BEGIN:VEVENT",
  `UID:${uid}`,
  `DTSTART;VALUE=DATE:${date.replaceAll("-", "")}`,
  "END:VEVENT",
];
/** 394 bytes: a zone whose rule no date matches, and an event in it (it hung the server for good). */
const neverZone = calendar(
  "BEGIN:VTIMEZONE",
  "TZID:Never",
  "BEGIN:STANDARD",
  "DTSTART:19700101T000000",
  "RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
  "TZOFFSETFROM:+0100",
  "TZOFFSETTO:+0100",
  "END:STANDARD",
  "END:VTIMEZONE",
  "BEGIN:VEVENT",
  "UID:a",
  "DTSTART;TZID=Never:20270106T100000",
  "DTEND;TZID=Never:20270106T110000",
  "END:VEVENT",
);
/** About 5 MB (the most read) of timed events, one a day from `from`. */
function bigCalendar(from: string) {
  const events: string[] = [];
  for (let i = 0; events.length < 30_800 * 7; i++) {
    const day = addDays(from, i % 365).replaceAll("-", "");
    events.push(
      "BEGIN:VEVENT",
      `UID:event-${i}@example.com`,
      "DTSTAMP:20260101T000000Z",
      `DTSTART:${day}T100000Z`,
      `DTEND:${day}T110000Z`,
      `SUMMARY:Rehearsal ${i} with the band`,
      "END:VEVENT",
    );
  }
  return calendarOf(events);
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  server = createServer((req, res) => {
    const url = (req.url ?? "").split("?")[0] ?? "";
    fetched.set(url, (fetched.get(url) ?? 0) + 1);
    const body = served.get(url);
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "text/calendar" });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await app?.close();
  await database?.dispose();
});

/** A signed-in artist of the test app: their cookie and actor. */
async function signedInArtist(name: string) {
  const user = await signedInUser(app, database.db, name);
  const artistId = await addArtistProfile({ db: database.db }, user.id);
  return {
    cookie: user.cookie,
    actor: { id: user.id, roles: ["artist"] as const, artistProfileId: artistId },
  };
}

describe("hostile calendars", () => {
  it("the server answers /healthz within 1 s throughout hostile reads through the page's forms", async () => {
    const artist = await signedInArtist("Hostile");
    const today = todayIn(app.env.timeZone);
    served.set("/never-zone.ics", neverZone);
    served.set("/big.ics", bigCalendar(today));
    const { result, slowest } = await slowestHealthCheck(app.request, async () => {
      const answers = [];
      for (const file of ["/never-zone.ics", "/big.ics"])
        answers.push(
          await postForm(
            app,
            "/calendars",
            { intent: "add-calendar", url: `${base}${file}` },
            artist.cookie,
          ),
        );
      return answers;
    });
    expect(result.map((r) => r.status)).toEqual([303, 303]);
    expect(slowest).toBeLessThan(1_000);
    const listed = await listImportedCalendars(newCtx(), artist.actor);
    expect(listed.map((c) => ({ error: c.lastError, stopped: c.stoppedAt }))).toEqual([
      { error: null, stopped: null },
      { error: null, stopped: null },
    ]);
    expect(listed[1]?.busyDays).toBeGreaterThan(360);
  }, 60_000);

  it("a read that runs out of time is stopped: the background sync leaves it, also after a restart, until 'Sync now'", async () => {
    const artist = await signedInArtist("Stopped");
    const today = todayIn(app.env.timeZone);
    served.set("/slow-to-read.ics", bigCalendar(today));
    const url = `${base}/slow-to-read.ics`;
    const added = await addImportedCalendar(
      newCtx(),
      artist.actor,
      { url },
      {
        readLimits: { timeoutMs: 200 },
      },
    );
    expect(added).toEqual({
      ok: false,
      error: expect.stringMatching(/^This calendar took longer to read than GigLedger allows/),
    });
    const [stopped] = await listImportedCalendars(newCtx(), artist.actor);
    expect(stopped?.stoppedAt).toBeInstanceOf(Date);

    // Long due by the clock; a new app on the same database runs the sync round as boot does.
    await database.db
      .update(externalCalendars)
      .set({ syncStartedAt: sql`now() - interval '1 hour'` })
      .where(eq(externalCalendars.id, stopped!.id));
    const before = fetched.get("/slow-to-read.ics");
    const restarted = newCtx();
    await enqueueJob(restarted.db, { queue: FIND_DUE_CALENDARS_QUEUE, key: "scheduled" });
    await runDueJobs(restarted.db, calendarJobs(restarted));
    expect(fetched.get("/slow-to-read.ics")).toBe(before);

    // The artist fixes the calendar and presses 'Sync now': it is read, and due again.
    served.set("/slow-to-read.ics", calendar(...allDay("fixed", addDays(today, 3))));
    const answer = await postForm(
      app,
      "/calendars",
      { intent: "sync-calendar", calendarId: stopped!.id },
      artist.cookie,
    );
    expect(answer.status).toBe(303);
    const [synced] = await listImportedCalendars(newCtx(), artist.actor);
    expect(synced).toMatchObject({ stoppedAt: null, lastError: null, busyDays: 1 });
  }, 60_000);

  it("a read that runs out of memory is stopped, in plain words", async () => {
    const artist = await createArtist({ db: database.db });
    served.set("/heavy.ics", bigCalendar(todayIn(app.env.timeZone)));
    const added = await addImportedCalendar(
      newCtx(),
      artistActor(artist),
      { url: `${base}/heavy.ics` },
      { readLimits: { memoryMb: 16 } },
    );
    expect(added).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^This calendar needed more memory to read than GigLedger allows/,
      ),
    });
  }, 60_000);
});

describe("'Sync now' and adding are limited", () => {
  it("30 clicks of 'Sync now' at once read the calendar once", async () => {
    const artist = await signedInArtist("Clicker");
    served.set("/clicked.ics", calendar(...allDay("x", addDays(todayIn(app.env.timeZone), 2))));
    await addImportedCalendar(newCtx(), artist.actor, { url: `${base}/clicked.ics` });
    const [added] = await listImportedCalendars(newCtx(), artist.actor);
    // Read a while ago, so a click may read it now.
    await database.db
      .update(externalCalendars)
      .set({ syncStartedAt: sql`now() - interval '2 minutes'` })
      .where(eq(externalCalendars.id, added!.id));
    const before = fetched.get("/clicked.ics") ?? 0;
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        postForm(
          app,
          "/calendars",
          { intent: "sync-calendar", calendarId: added!.id },
          artist.cookie,
        ),
      ),
    );
    expect(answers.every((a) => a.status === 303)).toBe(true);
    expect(fetched.get("/clicked.ics")).toBe(before + 1);
  });

  it("a user's reads are counted: the add and SYNC_NOW_LIMIT.max - 1 syncs, then 'try again in'", async () => {
    const artist = await createArtist({ db: database.db });
    served.set("/counted.ics", calendar());
    await addImportedCalendar(newCtx(), artistActor(artist), { url: `${base}/counted.ics` });
    const [added] = await listImportedCalendars(newCtx(), artistActor(artist));
    const sync = () =>
      syncImportedCalendar(
        newCtx(),
        artistActor(artist),
        { calendarId: added!.id },
        { minIntervalMs: 0 },
      );
    for (let i = 1; i < SYNC_NOW_LIMIT.max; i++) expect(await sync()).toMatchObject({ ok: true });
    await expect(sync()).rejects.toMatchObject({
      code: "rate_limited",
      message: expect.stringMatching(
        /^Your calendars were read 10 times in the last 10 minutes\. Please try again in 10 minutes/,
      ),
    });
  });

  it(`12 adds at once store ${MAX_CALENDARS_PER_ARTIST}, the rest refused in words`, async () => {
    const artist = await createArtist({ db: database.db });
    served.set("/one-of-many.ics", calendar());
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        addImportedCalendar(newCtx(), artistActor(artist), {
          url: `${base}/one-of-many.ics?copy=${i}`,
        }),
      ),
    );
    // Ten pass the user's read limit, of which the database stores five.
    const refusals = outcomes.map((o) =>
      o.status === "rejected" ? { code: o.reason.code, message: o.reason.message } : null,
    );
    expect(refusals.filter((r) => r === null)).toHaveLength(MAX_CALENDARS_PER_ARTIST);
    expect(refusals.filter((r) => r?.code === "conflict")).toEqual(
      Array(SYNC_NOW_LIMIT.max - MAX_CALENDARS_PER_ARTIST).fill({
        code: "conflict",
        message: `You can add at most ${MAX_CALENDARS_PER_ARTIST} calendars.`,
      }),
    );
    expect(refusals.filter((r) => r?.code === "rate_limited")).toHaveLength(
      12 - SYNC_NOW_LIMIT.max,
    );
    expect(await listImportedCalendars(newCtx(), artistActor(artist))).toHaveLength(
      MAX_CALENDARS_PER_ARTIST,
    );
  });
});
