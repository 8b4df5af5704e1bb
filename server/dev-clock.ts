/**
 * A local app's clock and job queues on demand (decision 054): `/dev/clock` shows the app's now
 * and moves it forward (a page that works without JavaScript, and JSON for tests), and
 * `/dev/jobs/run` runs named job queues now. `server/app.ts` mounts this only while the app is
 * local, as it mounts `/dev/psp`; a public app answers 404.
 */
import { type Context, Hono } from "hono";
import { ClockError, type LocalClock, parseDuration, parseInstant } from "~/lib/clock.server";
import { formatWallClock, toZonedInputValue } from "~/lib/dates";
import type { Env } from "~/lib/env.server";
import {
  type QueueHandler,
  type QueueRun,
  runQueuesNow,
  UnknownQueueError,
} from "~/lib/jobs.server";
import type { Queryable } from "~db/client";

export type DevClockOptions = {
  db: Queryable;
  env: Pick<Env, "timeZone">;
  clock: LocalClock;
  jobHandlers: QueueHandler[];
};

/** A request this sub-app refuses, with words for whoever sent it. */
class BadRequest extends Error {
  constructor(
    message: string,
    readonly status: 400 | 415 = 400,
  ) {
    super(message);
  }
}

type Body = { json: boolean; fields: Record<string, unknown> };

const QUICK_STEPS = [
  { label: "1 hour", duration: "PT1H" },
  { label: "1 day", duration: "P1D" },
  { label: "7 days", duration: "P7D" },
];

export function createDevClock({ db, env, clock, jobHandlers }: DevClockOptions) {
  const app = new Hono();
  const queues = jobHandlers.map((h) => h.queue);
  const state = () => {
    const now = clock.now();
    return {
      now: now.toISOString(),
      nowInZone: formatWallClock(now, env.timeZone, { withZone: true }),
      timeZone: env.timeZone,
      offsetMs: clock.offsetMs(),
    };
  };
  const page = (
    c: Context,
    extra: { error?: string; ran?: QueueRun[] } = {},
    status: 200 | 400 | 415 = 200,
  ) => c.html(clockPage(clock, env.timeZone, queues, extra), status);

  app.get("/clock", (c) => (wantsJson(c.req.header("accept")) ? c.json(state()) : page(c)));

  app.post("/clock", async (c) => {
    let body: Body | undefined;
    try {
      body = await readBody(c.req.raw);
      moveClock(clock, body.fields, env.timeZone);
    } catch (error) {
      if (!(error instanceof BadRequest || error instanceof ClockError)) throw error;
      const status = error instanceof BadRequest ? error.status : 400;
      return body?.json === false
        ? page(c, { error: error.message }, status)
        : c.json({ error: error.message }, status);
    }
    // After a form, back to the page (a reload does not post again).
    return body.json ? c.json(state()) : c.redirect("/dev/clock", 303);
  });

  app.get("/jobs/run", (c) => c.json({ queues }));

  app.post("/jobs/run", async (c) => {
    let body: Body | undefined;
    try {
      body = await readBody(c.req.raw);
      const names = queueNames(body.fields.name ?? c.req.query("name"));
      const ran = await runQueuesNow(db, jobHandlers, names, { clock });
      return body.json ? c.json({ now: clock.now().toISOString(), ran }) : page(c, { ran });
    } catch (error) {
      if (!(error instanceof BadRequest || error instanceof UnknownQueueError)) throw error;
      const status = error instanceof BadRequest ? error.status : 400;
      return body?.json === false
        ? page(c, { error: error.message }, status)
        : c.json({ error: error.message, queues }, status);
    }
  });

  return app;
}

/** Applies one of `set`, `advance` or `reset` to the clock. */
function moveClock(clock: LocalClock, fields: Record<string, unknown>, timeZone: string) {
  const given = ["set", "advance", "reset"].filter(
    (k) => fields[k] !== undefined && fields[k] !== "",
  );
  if (given.length !== 1) throw new BadRequest('Send exactly one of "set", "advance" or "reset".');
  if (given[0] === "reset") {
    if (fields.reset !== true && fields.reset !== "true")
      throw new BadRequest('"reset" must be true.');
    clock.reset();
    return;
  }
  if (given[0] === "set") {
    const instant = typeof fields.set === "string" ? parseInstant(fields.set, timeZone) : null;
    if (!instant)
      throw new BadRequest(
        '"set" must be a date and time such as 2027-02-10T10:00:00+05:30 (without an offset, it is read in the app\'s time zone).',
      );
    clock.set(instant);
    return;
  }
  const text = fields.advance === "custom" ? fields.duration : (fields.advance ?? fields.duration);
  const ms =
    typeof text === "string"
      ? parseDuration(text)
      : typeof text === "number" && Number.isSafeInteger(text) && text > 0
        ? text * 60_000
        : null;
  if (ms === null)
    throw new BadRequest(
      '"advance" must be a duration such as PT49H, P3D or P1DT2H30M, or a number of minutes.',
    );
  clock.advance(ms);
}

function queueNames(given: unknown): string[] {
  const names = (typeof given === "string" ? given.split(",") : Array.isArray(given) ? given : [])
    .map((name) => (typeof name === "string" ? name.trim() : ""))
    .filter(Boolean);
  if (names.length === 0 || names.length > 50)
    throw new BadRequest('Name the queues to run: "name" is a comma-separated list.');
  return names;
}

/** The body as fields: JSON (an object), or a form (urlencoded or multipart). */
async function readBody(request: Request): Promise<Body> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse(await request.text());
    } catch {
      throw new BadRequest("The request body is not valid JSON.");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value))
      throw new BadRequest("The request body must be a JSON object.");
    return { json: true, fields: value as Record<string, unknown> };
  }
  if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new BadRequest("The form could not be read.");
    }
    const fields: Record<string, unknown> = {};
    for (const [key, value] of form) {
      if (typeof value !== "string" || value.includes("\u0000"))
        throw new BadRequest(`The field "${key}" must be plain text.`);
      fields[key] = value;
    }
    return { json: false, fields };
  }
  if (type === "" && request.headers.get("content-length") === "0")
    return { json: true, fields: {} };
  throw new BadRequest("Send JSON or a form.", 415);
}

function wantsJson(accept: string | undefined) {
  return Boolean(accept?.includes("application/json") && !accept.includes("text/html"));
}

/** "3 days 2 hours 5 minutes"; "none" at real time. */
export function formatOffset(ms: number): string {
  if (ms <= 0) return "none (real time)";
  const units: [number, string][] = [
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
    [1000, "second"],
  ];
  let rest = ms;
  const parts: string[] = [];
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n} ${name}${n === 1 ? "" : "s"}`);
  }
  return `${parts.join(" ") || `${ms} ms`} ahead of real time`;
}

function clockPage(
  clock: LocalClock,
  timeZone: string,
  queues: string[],
  { error, ran }: { error?: string; ran?: QueueRun[] },
) {
  const now = clock.now();
  const steps = QUICK_STEPS.map(
    (s) => `<button type="submit" name="advance" value="${s.duration}">+ ${s.label}</button>`,
  ).join("\n  ");
  const ranList = ran
    ? `<h2>Ran</h2><ul>${ran
        .map(
          (r) =>
            `<li>${escapeHtml(r.queue)}: ${r.batches} ${r.batches === 1 ? "batch" : "batches"}${
              r.errors.length ? `, failed: ${escapeHtml(r.errors.join("; "))}` : ""
            }</li>`,
        )
        .join("")}</ul>`
    : "";
  const queueButtons = queues
    .map(
      (q) => `<button type="submit" name="name" value="${escapeHtml(q)}">${escapeHtml(q)}</button>`,
    )
    .join("\n  ");
  return `<!doctype html>
<html lang="en-IN">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>App clock · local</title></head>
<body>
<h1>App clock</h1>
<p>This local app's time, used by bookings, payments and background jobs. A public app always runs on real time.</p>
${error ? `<p role="alert"><strong>${escapeHtml(error)}</strong></p>` : ""}
<dl>
  <dt>Now (${escapeHtml(timeZone)})</dt><dd>${escapeHtml(formatWallClock(now, timeZone, { withZone: true }))}</dd>
  <dt>Now (UTC)</dt><dd><time datetime="${now.toISOString()}">${now.toISOString()}</time></dd>
  <dt>Offset</dt><dd>${escapeHtml(formatOffset(clock.offsetMs()))}</dd>
</dl>
<h2>Advance</h2>
<form method="post" action="/dev/clock">
  ${steps}
</form>
<form method="post" action="/dev/clock">
  <label>Duration (PT49H, P3D, P1DT2H30M or minutes) <input name="duration" required placeholder="PT49H"></label>
  <button type="submit" name="advance" value="custom">Advance</button>
</form>
<h2>Set</h2>
<form method="post" action="/dev/clock">
  <label>Date and time (${escapeHtml(timeZone)}) <input type="datetime-local" name="set" required value="${toZonedInputValue(now, timeZone)}"></label>
  <button type="submit">Set the app's time</button>
</form>
<h2>Real time</h2>
<form method="post" action="/dev/clock">
  <button type="submit" name="reset" value="true">Reset to real time</button>
</form>
<h2>Run job queues now</h2>
${ranList}
<form method="post" action="/dev/jobs/run">
  ${queueButtons}
</form>
</body>
</html>`;
}

function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );
}
