import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookings, portfolios } from "~db/schema";
import { addArtistProfile, createSession } from "~seed/factories";
import { startTestApp } from "./support/app-harness";
import { signedInUser } from "./support/sessions";
import { createTestDatabase } from "./support/test-database";

/**
 * A sweep over every route that has an action, found from app/routes.ts, so a new action is
 * covered the day it is added: signed out, as an artist and as a client, each gets a NUL byte in
 * every form field the app knows (with every intent the app uses), impossible dates, a JSON body,
 * a text body, multipart without a boundary and multipart cut short. None may answer 5xx.
 * (Each feature's own hostile tests check the exact answers and that nothing was written.)
 */
const ROOT = path.resolve(import.meta.dirname, "..");

function routesWithActions() {
  const config = readFileSync(path.join(ROOT, "app/routes.ts"), "utf8");
  return [...config.matchAll(/route\(\s*"([^"]+)",\s*"([^"]+)"/g)]
    .map((m) => ({ pattern: m[1] as string, file: m[2] as string }))
    .filter(({ file }) =>
      /export (async )?function action|export const action/.test(
        readFileSync(path.join(ROOT, "app", file), "utf8"),
      ),
    );
}

/** Every field name and intent any form of the app uses. */
function formVocabulary() {
  const names = new Set<string>();
  const intents = new Set<string>();
  const dir = path.join(ROOT, "app");
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".tsx")) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), "utf8");
    for (const m of text.matchAll(/name="([A-Za-z][\w.]*)"/g)) names.add(m[1] as string);
    for (const m of text.matchAll(/name="intent"\s+value="([\w-]+)"/g)) intents.add(m[1] as string);
    for (const m of text.matchAll(/intent:\s*"([\w-]+)"/g)) intents.add(m[1] as string);
  }
  return { names: [...names], intents: [...intents] };
}

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
const ids: Record<string, string> = {};
const cookies: Record<string, string> = { "signed out": "" };

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  const artist = await signedInUser(app, database.db, "Artist");
  const client = await signedInUser(app, database.db, "Client");
  cookies.artist = artist.cookie;
  cookies.client = client.cookie;
  const artistId = await addArtistProfile({ db: database.db }, artist.id);
  ids.sessionId = await createSession(database.db, artistId);
  const [portfolio] = await database.db
    .select({ id: portfolios.id })
    .from(portfolios)
    .where((await import("drizzle-orm")).eq(portfolios.artistProfileId, artistId));
  ids.id = portfolio?.id ?? "";
  const [booking] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: artistId,
      clientUserId: client.id,
      eventDate: "2099-01-01",
      durationHours: 2,
      venue: "Hall",
      eventType: "Wedding",
      totalAmount: 100,
    })
    .returning({ id: bookings.id });
  ids.bookingId = booking?.id ?? "";
  ids.token = "not-a-real-token";
  ids.artistId = artistId;
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

function pathOf(pattern: string) {
  return `/${pattern}`
    .replace(/\/:(\w+)\?/g, (_m, p: string) => (ids[p] ? `/${ids[p]}` : ""))
    .replace(/:(\w+)/g, (_m, p: string) => ids[p] ?? "x");
}

function post(url: string, body: BodyInit, cookie: string, contentType?: string) {
  return app.request(url, {
    method: "POST",
    body,
    headers: {
      Origin: app.env.appUrl.origin,
      ...(contentType ? { "Content-Type": contentType } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    redirect: "manual",
  });
}

const NUL = "abc\u0000def";
const IMPOSSIBLE_DATES = ["2026-13-01", "9999-99-99", "2026-02-30", "0000-01-01"];

describe("every action answers hostile requests without a 5xx", () => {
  const routes = routesWithActions();
  const { names, intents } = formVocabulary();

  it("finds the app's actions, fields and intents", () => {
    expect(routes.length).toBeGreaterThanOrEqual(10);
    expect(names).toEqual(expect.arrayContaining(["email", "venue", "eventDate", "message"]));
    expect(intents.length).toBeGreaterThanOrEqual(5);
  });

  it.each(["signed out", "artist", "client"])(
    "as %s",
    async (who) => {
      const failures: string[] = [];
      const check = async (label: string, response: Promise<Response>) => {
        const res = await response;
        if (res.status >= 500) failures.push(`${label}: ${res.status}`);
      };
      for (const route of routes) {
        const url = pathOf(route.pattern);
        const cookie = cookies[who] ?? "";
        for (const intent of [...intents, ""]) {
          const nul = new URLSearchParams({ intent });
          for (const name of names) if (name !== "intent") nul.set(name, NUL);
          await check(`${url} NUL intent=${intent}`, post(url, nul, cookie));
          const dates = new URLSearchParams({ intent, artistId: ids.artistId ?? "" });
          for (const [i, name] of names.filter((n) => /date|time/i.test(n)).entries())
            dates.set(name, IMPOSSIBLE_DATES[i % IMPOSSIBLE_DATES.length] as string);
          await check(`${url} dates intent=${intent}`, post(url, dates, cookie));
        }
        await check(`${url} JSON`, post(url, '{"intent":"x"}', cookie, "application/json"));
        await check(`${url} text`, post(url, "intent=x", cookie, "text/plain"));
        await check(
          `${url} multipart without boundary`,
          post(
            url,
            '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
            cookie,
            "multipart/form-data",
          ),
        );
        await check(
          `${url} truncated multipart`,
          post(
            url,
            '--B\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsig',
            cookie,
            "multipart/form-data; boundary=B",
          ),
        );
      }
      expect(failures).toEqual([]);
      // Every route × every intent, one request after another: about two thousand requests a
      // viewer, which a loaded 2-core machine takes well over the default 30 seconds to send.
    },
    180_000,
  );
});
