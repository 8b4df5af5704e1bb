import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTLE_BOOKINGS_QUEUE } from "~/features/bookings/booking-jobs.server";
import { createLocalClock, isLocalClock, type LocalClock } from "~/lib/clock.server";
import { startTestApp } from "../tests/support/app-harness";
import { createTestDatabase } from "../tests/support/test-database";
import { formatOffset } from "./dev-clock";

/** A local app's /dev/clock and /dev/jobs/run (decision 054), and a public app's 404. */
type TestApp = Awaited<ReturnType<typeof startTestApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let local: TestApp;
let publicApp: TestApp;

const HOUR = 3_600_000;

/** The local app's clock, as loaders and job handlers read it (`ctx.clock`). */
function localClock(): LocalClock {
  if (!isLocalClock(local.clock)) throw new Error("a local app has a local clock");
  return local.clock;
}

beforeAll(async () => {
  database = await createTestDatabase();
  local = await startTestApp(database, { APP_TIME_ZONE: "Asia/Kolkata" });
  publicApp = await startTestApp(database, {
    APP_URL: "https://gigledger.example",
    BETTER_AUTH_SECRET: "z".repeat(40),
    MAIL_TRANSPORT: "log",
  });
});
afterAll(async () => {
  await local?.close();
  await publicApp?.close();
  await database?.dispose();
});

function postJson(app: TestApp, path: string, body: unknown) {
  return app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: app.env.appUrl.origin },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function postForm(app: TestApp, path: string, fields: Record<string, string>) {
  return app.request(path, {
    method: "POST",
    headers: { Origin: app.env.appUrl.origin },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
}

type ClockState = { now: string; nowInZone: string; timeZone: string; offsetMs: number };

describe("a public app", () => {
  it("has real time and no /dev/clock or /dev/jobs/run", async () => {
    expect(isLocalClock(publicApp.clock)).toBe(false);
    expect((await publicApp.request("/dev/clock")).status).toBe(404);
    expect((await postJson(publicApp, "/dev/clock", { advance: "PT49H" })).status).toBe(404);
    expect((await publicApp.request("/dev/jobs/run")).status).toBe(404);
    expect(
      (await postJson(publicApp, "/dev/jobs/run", { name: SETTLE_BOOKINGS_QUEUE })).status,
    ).toBe(404);
    expect(Math.abs(publicApp.clock.now().getTime() - Date.now())).toBeLessThan(5000);
  });
});

describe("/dev/clock on a local app", () => {
  it("sets, advances and resets the app's now, kept in the data folder", async () => {
    const reset = await postJson(local, "/dev/clock", { reset: true });
    expect(reset.status).toBe(200);
    expect(((await reset.json()) as ClockState).offsetMs).toBe(0);

    const target = new Date(Date.now() + 30 * 24 * HOUR);
    target.setUTCSeconds(0, 0);
    const set = await postJson(local, "/dev/clock", { set: target.toISOString() });
    expect(set.status).toBe(200);
    const afterSet = (await set.json()) as ClockState;
    expect(Math.abs(Date.parse(afterSet.now) - target.getTime())).toBeLessThan(2000);
    expect(afterSet.timeZone).toBe("Asia/Kolkata");
    expect(afterSet.nowInZone).toMatch(/IST$/);

    const advanced = await postJson(local, "/dev/clock", { advance: "PT49H" });
    expect(advanced.status).toBe(200);
    const afterAdvance = (await advanced.json()) as ClockState;
    expect(afterAdvance.offsetMs - afterSet.offsetMs).toBe(49 * HOUR);
    // What a loader or job reads through ctx.clock is the same clock.
    expect(Math.abs(local.clock.now().getTime() - Date.parse(afterAdvance.now))).toBeLessThan(2000);
    // A restart reads the offset back from DATA_DIR/clock.json.
    const restarted = createLocalClock(`${local.env.dataDir}/clock.json`);
    expect(restarted.offsetMs()).toBe(afterAdvance.offsetMs);

    const minutes = await postJson(local, "/dev/clock", { advance: 90 });
    expect(((await minutes.json()) as ClockState).offsetMs - afterAdvance.offsetMs).toBe(
      1.5 * HOUR,
    );

    const back = await postJson(local, "/dev/clock", { reset: true });
    expect(((await back.json()) as ClockState).offsetMs).toBe(0);
    expect(createLocalClock(`${local.env.dataDir}/clock.json`).offsetMs()).toBe(0);
  });

  it("refuses to go back before the app's now, except by reset", async () => {
    await postJson(local, "/dev/clock", { advance: "P3D" });
    const before = localClock().offsetMs();
    const res = await postJson(local, "/dev/clock", {
      set: new Date(Date.now() + 24 * HOUR).toISOString(),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/only moves forward/);
    expect(localClock().offsetMs()).toBe(before);
    await postJson(local, "/dev/clock", { reset: true });
  });

  it("shows a page without scripts whose forms move the clock", async () => {
    await postJson(local, "/dev/clock", { reset: true });
    const page = await local.request("/dev/clock");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain("<script");
    expect(html).toContain("Now (Asia/Kolkata)");
    expect(html).toContain("Now (UTC)");
    expect(html).toContain("none (real time)");
    for (const field of ['name="advance" value="PT1H"', 'value="P1D"', 'value="P7D"'])
      expect(html).toContain(field);
    expect(html).toContain('name="set"');
    expect(html).toContain('name="reset"');
    expect(html).toContain(`value="${SETTLE_BOOKINGS_QUEUE}"`);

    const day = await postForm(local, "/dev/clock", { advance: "P1D" });
    expect(day.status).toBe(303);
    expect(day.headers.get("location")).toBe("/dev/clock");
    expect(localClock().offsetMs()).toBe(24 * HOUR);
    await postForm(local, "/dev/clock", { advance: "custom", duration: "PT2H" });
    expect(localClock().offsetMs()).toBe(26 * HOUR);
    expect(await (await local.request("/dev/clock")).text()).toContain(
      "1 day 2 hours ahead of real time",
    );

    // A datetime-local value is read in the app's zone.
    const wall = "2099-01-01T09:30";
    expect((await postForm(local, "/dev/clock", { set: wall })).status).toBe(303);
    expect(local.clock.now().toISOString().slice(0, 16)).toBe("2099-01-01T04:00");

    const refused = await postForm(local, "/dev/clock", { set: "2098-01-01T00:00" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("only moves forward");

    expect((await postForm(local, "/dev/clock", { reset: "true" })).status).toBe(303);
    expect(localClock().offsetMs()).toBe(0);
  });

  it.each([
    ["no instruction", {}],
    ["two instructions", { advance: "PT1H", reset: true }],
    ["a bad duration", { advance: "tomorrow" }],
    ["a year", { advance: "P1Y" }],
    ["a negative duration", { advance: "-PT1H" }],
    ["a zero duration", { advance: "PT0S" }],
    ["a negative number", { advance: -5 }],
    ["a fraction of a minute", { advance: 1.5 }],
    ["an object", { advance: { hours: 1 } }],
    ["a NUL byte", { advance: "PT1H\u0000" }],
    ["beyond 100 years", { advance: "P40000D" }],
    ["an impossible date", { set: "2099-02-30T10:00" }],
    ["a date without a time", { set: "2099-02-01" }],
    ["a number for set", { set: 4102444800000 }],
    ["reset false", { reset: false }],
    ["reset as text", { reset: "yes" }],
  ])("answers %s with 400 and changes nothing", async (_label, body) => {
    await postJson(local, "/dev/clock", { reset: true });
    const res = await postJson(local, "/dev/clock", body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error.length).toBeGreaterThan(10);
    expect(localClock().offsetMs()).toBe(0);
  });

  it.each([
    ["broken JSON", "application/json", "{"],
    ["a JSON array", "application/json", "[]"],
    ["JSON null", "application/json", "null"],
    ["a text body", "text/plain", "advance=PT1H"],
    ["multipart without a boundary", "multipart/form-data", "x"],
    ["a NUL byte in a form", "application/x-www-form-urlencoded", "advance=PT1H%00"],
  ])("answers %s without a 5xx", async (_label, type, body) => {
    const res = await local.request("/dev/clock", {
      method: "POST",
      headers: { "Content-Type": type, Origin: local.env.appUrl.origin },
      body,
    });
    expect([400, 415]).toContain(res.status);
  });

  it("refuses a cross-site POST", async () => {
    const res = await local.request("/dev/clock", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify({ advance: "P7D" }),
    });
    expect(res.status).toBe(403);
  });
});

describe("/dev/jobs/run on a local app", () => {
  it("lists the queues", async () => {
    const res = await local.request("/dev/jobs/run");
    const { queues } = (await res.json()) as { queues: string[] };
    expect(queues).toContain(SETTLE_BOOKINGS_QUEUE);
    expect(queues).toEqual(local.jobHandlers.map((h) => h.queue));
  });

  it("runs a scheduled queue now, by JSON, form or query", async () => {
    const res = await postJson(local, "/dev/jobs/run", { name: SETTLE_BOOKINGS_QUEUE });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { now: string; ran: unknown[] };
    expect(body.ran).toEqual([
      { queue: SETTLE_BOOKINGS_QUEUE, batches: 1, scheduled: true, errors: [] },
    ]);

    const byQuery = await local.request(`/dev/jobs/run?name=${SETTLE_BOOKINGS_QUEUE}`, {
      method: "POST",
      headers: { Origin: local.env.appUrl.origin, "Content-Length": "0" },
    });
    expect(byQuery.status).toBe(200);

    const queues = local.jobHandlers.map((h) => h.queue);
    const byForm = await postForm(local, "/dev/jobs/run", { name: queues.slice(0, 2).join(",") });
    expect(byForm.status).toBe(200);
    expect(await byForm.text()).toContain(`${queues[0]}: `);
  });

  it.each([
    ["an unknown name", { name: "nope" }],
    ["one unknown among known", { name: `${SETTLE_BOOKINGS_QUEUE},nope` }],
    ["no name", {}],
    ["an empty name", { name: " , " }],
    ["a number", { name: 5 }],
    ["a NUL byte", { name: `${SETTLE_BOOKINGS_QUEUE}\u0000` }],
  ])("answers %s with 400", async (_label, body) => {
    const res = await postJson(local, "/dev/jobs/run", body);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBeTruthy();
  });

  it("answers hostile bodies without a 5xx", async () => {
    for (const [type, body] of [
      ["application/json", "{"],
      ["text/plain", "name=x"],
      ["multipart/form-data", "x"],
    ] as const) {
      const res = await local.request("/dev/jobs/run", {
        method: "POST",
        headers: { "Content-Type": type, Origin: local.env.appUrl.origin },
        body,
      });
      expect([400, 415]).toContain(res.status);
    }
  });
});

describe("formatOffset", () => {
  it("says how far ahead the app is", () => {
    expect(formatOffset(0)).toBe("none (real time)");
    expect(formatOffset(49 * HOUR + 60_000)).toBe("2 days 1 hour 1 minute ahead of real time");
    expect(formatOffset(500)).toBe("500 ms ahead of real time");
  });
});
