import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { queryRows } from "~db/client";
import { bookings } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

// One request to several artists through HTTP (decision 060): the page, the form and its hostile
// bodies, and the withdrawal when one artist accepts.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
const artists: (Person & { profileId: string })[] = [];
let client: Person;
let date: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  for (const name of ["Asha", "Bela", "Chandni", "Devika"]) {
    const person = await signedInUser(app, database.db, name);
    artists.push({ ...person, profileId: await addArtistProfile({ db: database.db }, person.id) });
  }
  client = await signedInUser(app, database.db, "Meera");
  date = addDays(todayIn(app.env.timeZone), 20);
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const ids = (n: number) => artists.slice(0, n).map((a) => a.profileId);
const page = (query: string, cookie = client.cookie) =>
  app.request(`/bookings?${query}`, { headers: { Cookie: cookie } });
/** The form's body for these artists; `extra` replaces a field (or adds one). */
const request = (artistIds: string[], extra: [string, string][] = []): [string, string][] => {
  const fields: [string, string][] = [
    ["eventDate", date],
    ["durationHours", "3"],
    ["venue", "Juhu, Mumbai"],
    ["eventType", "Wedding"],
  ];
  const replaced = new Set(extra.map(([key]) => key));
  return [
    ...artistIds.map((id): [string, string] => ["artistIds", id]),
    ...fields.filter(([key]) => !replaced.has(key)),
    ...extra,
  ];
};
const stored = async () =>
  (
    await database.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.clientUserId, client.id))
  ).length;

describe("the request page for several artists", () => {
  it("lists two or three artists with each one's terms, and says when there are too many", async () => {
    const two = await page(
      ids(2)
        .map((id) => `artist=${id}`)
        .join("&"),
    );
    expect(two.status).toBe(200);
    const html = await two.text();
    expect(html).toContain("Ask 2 artists at once");
    expect(html).toContain("Send Request to 2 Artists");
    expect(html.match(/>Remove</g)).toHaveLength(2);
    const four = await (
      await page(
        ids(4)
          .map((id) => `artist=${id}`)
          .join("&"),
      )
    ).text();
    expect(four).toContain("One request can go to at most 3 artists. Remove");
    // One artist named twice (once by id, once by slug) is one artist.
    const [slugged] = await queryRows<{ slug: string }>(
      database.db,
      sql`SELECT slug FROM artist_profiles WHERE id = ${ids(1)[0]}`,
    );
    const twice = await (await page(`artist=${ids(1)[0]}&artist=${slugged?.slug}`)).text();
    expect(twice).toContain("Send Booking Request");
    expect(twice).not.toContain("artists at once");
    // Sent from discovery's search form, which always holds its budget's hours: they start the
    // form only when a budget was searched for.
    const pair = ids(2)
      .map((id) => `artist=${id}`)
      .join("&");
    const fromSearch = async (budget: string) => {
      const html = await (
        await page(`q=sitar&date=&budget=${budget}&hours=5&${pair}&ask=1`)
      ).text();
      return /<input[^>]*name="durationHours"[^>]*>/.exec(html)?.[0] ?? "";
    };
    expect(await fromSearch("6000")).toContain('value="5"');
    expect(await fromSearch("")).not.toContain('value="5"');
    // 'Ask together' with nothing ticked, and no artist at all.
    expect(await (await page("ask=1")).text()).toContain("Choose the artists to ask");
    expect((await page("")).status).toBe(404);
    expect((await page(`artist=${ids(1)[0]}&artist=%00`)).status).toBe(404);
    // An artist asked along with others never sees their own profile among them.
    const own = artists[0] as (typeof artists)[number];
    const asArtist = await (
      await page(
        ids(3)
          .map((id) => `artist=${id}`)
          .join("&"),
        own.cookie,
      )
    ).text();
    expect(asArtist).toContain("Ask 2 artists at once");
  });
});

describe("sending one request to several artists", () => {
  it("refuses bad bodies with clear messages and stores nothing", async () => {
    const before = await stored();
    const cases: [[string, string][], string][] = [
      [request(ids(4)), "One request can go to at most 3 artists."],
      [request([ids(1)[0] as string, ids(1)[0] as string]), "Each artist can be asked only once."],
      [request([ids(1)[0] as string, "not-an-id"]), "Artist profile not found."],
      [request(ids(2), [["termsSha256", "nope"]]), "The artists&#x27; terms could not be read"],
      [request(ids(2), [["eventDate", "2020-13-45"]]), "Please choose a valid date"],
    ];
    for (const [body, message] of cases) {
      // To the form's own address, as the form posts it (the artists in the URL).
      const asked = body.filter(([k]) => k === "artistIds").map(([, v]) => `artist=${v}`);
      const res = await postForm(app, `/bookings?${asked.join("&")}`, body, client.cookie);
      expect(res.status, message).toBe(400);
      const text = await res.text();
      // Said on the form, which is drawn again with what was typed.
      expect(text).toContain(message);
      expect(text).toContain('value="Juhu, Mumbai"');
    }
    const nul = await postForm(
      app,
      "/bookings",
      request(ids(2), [["venue", "a\u0000b"]]),
      client.cookie,
    );
    expect(nul.status).toBe(400);
    // Signed out: to sign in, coming back to the same artists and choices.
    const signedOut = await postForm(app, "/bookings", request(ids(2)));
    expect(signedOut.status).toBe(302);
    const back = decodeURIComponent(
      new URL(signedOut.headers.get("location") as string, app.env.appUrl).searchParams.get(
        "redirectTo",
      ) as string,
    );
    expect(back).toContain(`artist=${ids(2)[0]}&artist=${ids(2)[1]}`);
    expect(back).toContain(`date=${date}`);
    // An artist asking themselves along with others.
    const own = artists[0] as (typeof artists)[number];
    expect((await postForm(app, "/bookings", request(ids(2)), own.cookie)).status).toBe(403);
    expect(await stored()).toBe(before);
  });

  it("sends to each, and withdraws the others when one accepts; a withdrawn one cannot be accepted", async () => {
    const res = await postForm(app, "/bookings", request(ids(3)), client.cookie);
    expect(res.status).toBe(302);
    const first = (res.headers.get("location") as string).match(
      /^\/bookings\/([0-9a-f-]{36})$/,
    )?.[1];
    expect(first).toBeTruthy();
    const rows = await queryRows<{ id: string; artist: string; status: string }>(
      database.db,
      sql`SELECT id, artist_profile_id AS artist, status FROM bookings
          WHERE client_user_id = ${client.id} AND event_date = ${date}::date`,
    );
    expect(rows.map((r) => r.status)).toEqual(["pending", "pending", "pending"]);
    const bookingOf = (i: number) =>
      rows.find((r) => r.artist === artists[i]?.profileId)?.id as string;
    // The client's page lists the others; an artist's says only how many were asked.
    const clientPage = await (
      await app.request(`/bookings/${bookingOf(0)}`, { headers: { Cookie: client.cookie } })
    ).text();
    expect(clientPage).toContain("Also sent to 2 other artists");
    const artistPage = await (
      await app.request(`/bookings/${bookingOf(0)}`, {
        headers: { Cookie: artists[0]?.cookie as string },
      })
    ).text();
    expect(artistPage).toContain("sent this request to 3 artists");
    expect(artistPage).not.toContain(`/bookings/${bookingOf(1)}`);
    // Bela accepts: Asha's and Chandni's are withdrawn.
    const accepted = await postForm(
      app,
      `/bookings/${bookingOf(1)}`,
      { intent: "accept" },
      artists[1]?.cookie,
    );
    expect(accepted.status).toBeLessThan(400);
    const after = await queryRows<{ id: string; status: string; withdrawn: string | null }>(
      database.db,
      sql`SELECT id, status, withdrawn_for_id AS withdrawn FROM bookings
          WHERE client_user_id = ${client.id} AND event_date = ${date}::date`,
    );
    for (const row of after) {
      if (row.id === bookingOf(1))
        expect(row).toMatchObject({ status: "confirmed", withdrawn: null });
      else expect(row).toMatchObject({ status: "cancelled", withdrawn: bookingOf(1) });
    }
    // Asha tries to accept hers anyway: refused, nothing changes.
    const late = await postForm(
      app,
      `/bookings/${bookingOf(0)}`,
      { intent: "accept" },
      artists[0]?.cookie,
    );
    expect(late.status).toBe(409);
    // Asha's page says hers was withdrawn, not which booking it gave way to.
    const withdrawnPage = await (
      await app.request(`/bookings/${bookingOf(0)}`, {
        headers: { Cookie: artists[0]?.cookie as string },
      })
    ).text();
    expect(withdrawnPage).toContain("so it was withdrawn");
    expect(withdrawnPage).not.toContain(bookingOf(1));
    expect(await late.text()).toContain("The client agreed with another artist");
    const [still] = await queryRows<{ status: string }>(
      database.db,
      sql`SELECT status FROM bookings WHERE id = ${bookingOf(0)}`,
    );
    expect(still?.status).toBe("cancelled");
  });
});
