import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { agreements, bookings, offerAcceptances, offerChangeRequests, offers } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

// Who may quote, answer a quote and read an agreement (docs/product.md, "Quotes and agreements"),
// over HTTP as a browser posts: outsiders meet "not found", the wrong party "forbidden", hostile
// bodies a 400 with words, and none of them changes a row.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let artist: Person;
let client: Person;
let otherClient: Person;
let otherArtist: Person;
let stranger: Person;
let artistId: string;
let today: string;
/** A pending request with the artist's quote open (version 2). */
let quotedId: string;
/** A booking whose quote the client accepted: it has an agreement in force. */
let agreedId: string;
let agreedHash: string;

/** The artist's quote form, filled as the composer sends it. */
function quoteFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "quote",
    eventDate: addDays(today, 9),
    startTime: "19:00",
    durationHours: "2",
    lineLabel0: "2 sets of 45 minutes",
    lineAmount0: "30000",
    lineLabel1: "Sound system",
    lineAmount1: "5000.50",
    depositPercent: "30",
    balanceDueDays: "7",
    policy: "strict",
    included: "Two sets\nOwn sound system",
    notes: "",
    expiresInDays: "3",
    ...overrides,
  };
}

/** A form POST whose body may repeat a key (an array), as a hostile client can send. */
function postPairs(path: string, pairs: [string, string][], cookie?: string) {
  return app.request(path, {
    method: "POST",
    body: new URLSearchParams(pairs),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: app.env.appUrl.origin,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    redirect: "manual",
  });
}

async function requestBooking(daysAhead: number, venue: string) {
  const res = await postForm(
    app,
    "/bookings",
    {
      artistId,
      eventDate: addDays(today, daysAhead),
      durationHours: "2",
      venue,
      eventType: "Wedding",
      message: "Hi",
    },
    client.cookie,
  );
  expect(res.status).toBe(302);
  const [booking] = await database.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.clientUserId, client.id), eq(bookings.venue, venue)));
  return booking!.id;
}

async function openHash(bookingId: string) {
  const [open] = await database.db
    .select({ sha256: offers.sha256 })
    .from(offers)
    .where(and(eq(offers.bookingId, bookingId), eq(offers.status, "open")));
  return open?.sha256 ?? null;
}

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
  today = todayIn(app.env.timeZone);

  quotedId = await requestBooking(9, "Quoted Hall");
  expect((await postForm(app, `/bookings/${quotedId}`, quoteFields(), artist.cookie)).status).toBe(
    302,
  );

  agreedId = await requestBooking(12, "Agreed Hall");
  expect(
    (
      await postForm(
        app,
        `/bookings/${agreedId}`,
        quoteFields({ eventDate: addDays(today, 12) }),
        artist.cookie,
      )
    ).status,
  ).toBe(302);
  const accepted = await postForm(
    app,
    `/bookings/${agreedId}`,
    { intent: "acceptQuote", sha256: (await openHash(agreedId)) ?? "" },
    client.cookie,
  );
  expect(accepted.status).toBe(302);
  expect(accepted.headers.get("location")).toBe(`/bookings/${agreedId}/agreement`);
  const [agreement] = await database.db
    .select({ sha256: agreements.sha256 })
    .from(agreements)
    .where(eq(agreements.bookingId, agreedId));
  agreedHash = agreement!.sha256;
}, 120_000);

afterAll(async () => {
  const failures = app?.logs.filter((line) => line.level >= 50) ?? [];
  await app?.close();
  await database?.dispose();
  // No answer above was a server error: nothing was logged as one.
  expect(failures).toEqual([]);
});

/** Every row a quote, an answer or an agreement could touch, to compare before and after. */
async function snapshot() {
  const db = database.db;
  return {
    bookings: await db
      .select({
        id: bookings.id,
        status: bookings.status,
        eventDate: bookings.eventDate,
        startTime: bookings.startTime,
        durationHours: bookings.durationHours,
        totalAmount: bookings.totalAmount,
        cancelledAt: bookings.cancelledAt,
      })
      .from(bookings)
      .orderBy(asc(bookings.id)),
    offers: await db
      .select({
        id: offers.id,
        version: offers.version,
        status: offers.status,
        sha256: offers.sha256,
        closedAt: offers.closedAt,
      })
      .from(offers)
      .orderBy(asc(offers.id)),
    acceptances: await db.select({ id: offerAcceptances.id }).from(offerAcceptances),
    changeRequests: await db.select({ id: offerChangeRequests.id }).from(offerChangeRequests),
    agreements: await db
      .select({ id: agreements.id, status: agreements.status, sha256: agreements.sha256 })
      .from(agreements)
      .orderBy(asc(agreements.id)),
  };
}

/** The page's words, as a person reads them (React escapes quotes and ampersands). */
async function textOf(res: Response) {
  return (await res.text())
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");
}

/** The answer's status and `message` in its page; else the words in red the page does show. */
async function expectRefused(res: Response, status: number, message: string, what: string) {
  const text = await textOf(res);
  const shown = text.includes(message)
    ? message
    : [...text.matchAll(/(?:role="alert"|text-red-\d00)[^>]*>([^<]{1,300})</g)].map((m) => m[1]);
  expect.soft({ status: res.status, shown }, what).toEqual({ status, shown: message });
}

describe("people who are not the booking's parties", () => {
  const outsiders = () =>
    [
      ["a stranger", stranger.cookie],
      ["another client", otherClient.cookie],
      ["another artist", otherArtist.cookie],
    ] as const;

  it("can't quote, accept, ask for changes or decline: 404, or the sign-in page, and no row changes", async () => {
    const before = await snapshot();
    const sha256 = (await openHash(quotedId)) ?? "";
    const bodies: Record<string, string>[] = [
      quoteFields({ lineAmount0: "1" }),
      { intent: "acceptQuote", sha256 },
      { intent: "askChanges", message: "Let me in", wishedTotal: "100" },
      { intent: "declineQuote" },
    ];
    for (const bookingId of [quotedId, agreedId]) {
      for (const body of bodies) {
        for (const [who, cookie] of outsiders()) {
          const res = await postForm(app, `/bookings/${bookingId}`, body, cookie);
          expect(res.status, `${who}: ${body.intent}`).toBe(404);
          expect(await res.text()).not.toContain(sha256);
        }
        const signedOut = await postForm(app, `/bookings/${bookingId}`, body);
        expect(signedOut.status, `signed out: ${body.intent}`).toBe(302);
        expect(signedOut.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("can't read the agreement: its page, agreement.json and the PDF answer 404", async () => {
    const base = `/bookings/${agreedId}/agreement`;
    const paths = [
      base,
      `${base}.data`,
      `${base}?sha256=${agreedHash}`,
      `${base}.json`,
      `${base}.json?sha256=${agreedHash}`,
      `${base}.pdf`,
      `${base}.pdf?sha256=${agreedHash}`,
    ];
    for (const path of paths) {
      for (const [who, cookie] of outsiders()) {
        const res = await app.request(path, { headers: { Cookie: cookie }, redirect: "manual" });
        expect(res.status, `${who}: ${path}`).toBe(404);
        expect(await res.text(), `${who}: ${path}`).not.toContain(agreedHash);
      }
    }
    // Signed out: the page asks to sign in (as the booking's page does); the files are not found.
    const page = await app.request(base, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/auth\?redirectTo=/);
    for (const path of [`${base}.json`, `${base}.pdf`]) {
      const res = await app.request(path, { redirect: "manual" });
      expect(res.status, `signed out: ${path}`).toBe(404);
      expect(await res.text()).not.toContain(agreedHash);
    }
    // A booking with no agreement has none to show, even to its parties.
    for (const cookie of [client.cookie, artist.cookie]) {
      const res = await app.request(`/bookings/${quotedId}/agreement.json`, {
        headers: { Cookie: cookie },
      });
      expect(res.status).toBe(404);
    }
  });

  it("the two parties do read it: the same signed bytes, page and PDF", async () => {
    const base = `/bookings/${agreedId}/agreement`;
    const bodies: string[] = [];
    for (const cookie of [client.cookie, artist.cookie]) {
      const page = await app.request(base, { headers: { Cookie: cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(agreedHash);
      const json = await app.request(`${base}.json`, { headers: { Cookie: cookie } });
      expect(json.status).toBe(200);
      expect(json.headers.get("content-type")).toMatch(/^application\/json/);
      bodies.push(await json.text());
      const pdf = await app.request(`${base}.pdf`, { headers: { Cookie: cookie } });
      expect(pdf.status).toBe(200);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe("%PDF-");
    }
    expect(bodies[0]).toBe(bodies[1]);
    expect(JSON.parse(bodies[0] ?? "{}").signature.sha256).toBe(agreedHash);
  });
});

describe("the wrong party of the booking", () => {
  it("the client can't send a quote, the artist can't accept, ask for changes or decline: 403", async () => {
    const before = await snapshot();
    const sha256 = (await openHash(quotedId)) ?? "";
    await expectRefused(
      await postForm(app, `/bookings/${quotedId}`, quoteFields(), client.cookie),
      403,
      "Only the artist of a pending request can send a quote.",
      "the client quoting",
    );
    await expectRefused(
      await postForm(
        app,
        `/bookings/${agreedId}`,
        quoteFields({ eventDate: addDays(today, 12) }),
        client.cookie,
      ),
      403,
      "Only the artist of a pending request can send a quote.",
      "the client proposing a change",
    );
    const artistAnswers: [Record<string, string>, string][] = [
      [{ intent: "acceptQuote", sha256 }, "Only the client can accept a quote."],
      [
        { intent: "askChanges", message: "Cheaper, please" },
        "Only the client can ask for changes.",
      ],
      [{ intent: "declineQuote" }, "Only the client can decline a quote."],
    ];
    for (const [body, message] of artistAnswers) {
      await expectRefused(
        await postForm(app, `/bookings/${quotedId}`, body, artist.cookie),
        403,
        message,
        `the artist: ${body.intent}`,
      );
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("hostile bodies from the right party", () => {
  const HUGE = "x".repeat(100_000);

  it("a quote: 400 with the field's words, never 5xx, nothing stored", async () => {
    const before = await snapshot();
    const LINE = "Each line needs a label and an amount.";
    const DEPOSIT = "Choose a deposit between 10% and 100%.";
    const EXPIRY = "Choose when the quote expires (1 to 14 days).";
    const cases: [string, Record<string, string>, string][] = [
      [
        "a NUL byte in a label",
        { lineLabel0: "Sets\u0000" },
        "This field contains a character we can't accept. Please retype it.",
      ],
      [
        "a NUL byte in the notes",
        { notes: "a\u0000b" },
        "This field contains a character we can't accept. Please retype it.",
      ],
      ["a 100 kB label", { lineLabel0: HUGE }, "Keep each label to 80 characters."],
      ["100 kB of notes", { notes: HUGE }, "Notes can be at most 1000 characters."],
      ["a 100 kB included item", { included: HUGE }, "Keep each included item to 120 characters."],
      ["an amount of 1e309", { lineAmount0: "1e309" }, LINE],
      ["a negative amount", { lineAmount0: "-5" }, LINE],
      ["a third decimal", { lineAmount0: "12.345" }, LINE],
      ["a hexadecimal amount", { lineAmount0: "0x10" }, LINE],
      ["Infinity", { lineAmount0: "Infinity" }, LINE],
      ["NaN", { lineAmount0: "NaN" }, LINE],
      ["a zero amount", { lineAmount0: "0" }, LINE],
      ["a label without an amount", { lineAmount1: "" }, LINE],
      [
        "no lines at all",
        { lineLabel0: "", lineAmount0: "", lineLabel1: "", lineAmount1: "" },
        LINE,
      ],
      ["an amount of 21 digits", { lineAmount0: "999999999999999999999" }, LINE],
      [
        "a total above ₹25 crore",
        { lineAmount0: "25,00,00,000", lineAmount1: "0.01" },
        "The total must be between ₹100.00 and ₹25,00,00,000.00.",
      ],
      [
        "a total below ₹100",
        { lineAmount0: "50", lineAmount1: "49.99" },
        "The total must be between ₹100.00 and ₹25,00,00,000.00.",
      ],
      ["an unknown policy", { policy: "lenient" }, "Choose a cancellation policy."],
      ["a deposit of 7 %", { depositPercent: "7" }, DEPOSIT],
      ["a deposit of 1e309 %", { depositPercent: "1e309" }, DEPOSIT],
      ["a deposit of -10 %", { depositPercent: "-10" }, DEPOSIT],
      ["a deposit of 12.5 %", { depositPercent: "12.5" }, DEPOSIT],
      ["a deposit above 100 %", { depositPercent: "105" }, DEPOSIT],
      ["a balance due 5 days before", { balanceDueDays: "5" }, "Choose when the balance is due."],
      ["an expiry of 0 days", { expiresInDays: "0" }, EXPIRY],
      ["an expiry of 15 days", { expiresInDays: "15" }, EXPIRY],
      ["an expiry of -1 days", { expiresInDays: "-1" }, EXPIRY],
      ["an expiry of 1e309 days", { expiresInDays: "1e309" }, "Choose when the quote expires."],
      // Zod reads Infinity as no number at all: the words are the missing field's.
      ["a length of 1e309 hours", { durationHours: "1e309" }, "Duration is required"],
      ["a length of 0.7 hours", { durationHours: "0.7" }, "Duration must be in half-hour steps"],
      ["no such day", { eventDate: "2027-02-30" }, "Please choose a valid date"],
      ["no such time", { startTime: "25:00" }, "Please enter a valid start time"],
      ["a date in the past", { eventDate: addDays(today, -3) }, "Choose a date after today."],
      [
        "an expiry less than a day before the event",
        { eventDate: addDays(today, 2), startTime: "00:00", expiresInDays: "3" },
        "The quote must expire at least a day before the event.",
      ],
    ];
    for (const [what, overrides, message] of cases) {
      await expectRefused(
        await postForm(app, `/bookings/${quotedId}`, quoteFields(overrides), artist.cookie),
        400,
        message,
        what,
      );
    }
    // Eleven lines: the composer has ten rows, and an eleventh is refused, not dropped.
    const eleven = quoteFields();
    for (let i = 0; i <= 10; i++) {
      eleven[`lineLabel${i}`] = `Line ${i + 1}`;
      eleven[`lineAmount${i}`] = "1000";
    }
    await expectRefused(
      await postForm(app, `/bookings/${quotedId}`, eleven, artist.cookie),
      400,
      "A quote has at most 10 lines.",
      "eleven lines",
    );
    // A field sent twice (an array) is refused, not read as its first value.
    for (const key of ["policy", "lineAmount0", "depositPercent", "expiresInDays"]) {
      const pairs = Object.entries(quoteFields());
      const value = quoteFields()[key] ?? "";
      pairs.push([key, key === "policy" ? "flexible" : value]);
      await expectRefused(
        await postPairs(`/bookings/${quotedId}`, pairs, artist.cookie),
        400,
        "Send each field once.",
        `${key} twice`,
      );
    }
    expect(await snapshot()).toEqual(before);
  });

  it("asking for changes: 400 with the field's words, never 5xx, nothing stored", async () => {
    const before = await snapshot();
    const TOTAL = "Enter the total you have in mind in rupees.";
    const DEPOSIT = "Choose a deposit between 10% and 100%.";
    const ask = (fields: Record<string, string>) => ({
      intent: "askChanges",
      message: "A little less, please",
      ...fields,
    });
    const cases: [string, Record<string, string>, string][] = [
      [
        "a NUL byte in the message",
        { message: "less\u0000" },
        "This field contains a character we can't accept. Please retype it.",
      ],
      ["no message", { message: "  " }, "Tell the artist what you would like changed."],
      ["a 100 kB message", { message: HUGE }, "Keep the message to 2000 characters or fewer."],
      ["a wished total of 1e309", { wishedTotal: "1e309" }, TOTAL],
      ["a negative wished total", { wishedTotal: "-5" }, TOTAL],
      ["a wished total with a third decimal", { wishedTotal: "12.345" }, TOTAL],
      ["a hexadecimal wished total", { wishedTotal: "0x10" }, TOTAL],
      ["a wished total above the maximum", { wishedTotal: "999999999999" }, TOTAL],
      ["a wished deposit of 7 %", { wishedDepositPercent: "7" }, DEPOSIT],
      ["a wished deposit of 1e309 %", { wishedDepositPercent: "1e309" }, DEPOSIT],
      ["a hexadecimal wished deposit", { wishedDepositPercent: "0x14" }, DEPOSIT],
      ["an unknown wished policy", { wishedPolicy: "lenient" }, "Choose a cancellation policy."],
    ];
    for (const [what, fields, message] of cases) {
      await expectRefused(
        await postForm(app, `/bookings/${quotedId}`, ask(fields), client.cookie),
        400,
        message,
        what,
      );
    }
    for (const key of ["message", "wishedTotal"]) {
      const pairs = Object.entries(ask({ wishedTotal: "30000" }));
      pairs.push([key, "again"]);
      const res = await postPairs(`/bookings/${quotedId}`, pairs, client.cookie);
      expect.soft(res.status, `${key} twice`).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("accepting: a hash that is not one, or not the open quote's, agrees nothing", async () => {
    const before = await snapshot();
    const sha256 = (await openHash(quotedId)) ?? "";
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    const CHANGED = "The quote changed while you were reading it.";
    const malformed: [string, string][] = [
      ["a non-hex hash", "z".repeat(64)],
      ["an upper-case hash", sha256.toUpperCase()],
      ["a short hash", sha256.slice(0, 63)],
      ["a NUL byte", `${sha256.slice(0, 63)}\u0000`],
      ["100 kB", HUGE],
      ["no hash", ""],
    ];
    for (const [what, value] of malformed) {
      const res = await postForm(
        app,
        `/bookings/${quotedId}`,
        { intent: "acceptQuote", sha256: value },
        client.cookie,
      );
      expect(res.status, what).toBe(400);
    }
    const twice = await postPairs(
      `/bookings/${quotedId}`,
      [
        ["intent", "acceptQuote"],
        ["sha256", sha256],
        ["sha256", sha256],
      ],
      client.cookie,
    );
    expect(twice.status, "the hash twice").toBe(400);
    // A well-formed hash that is not the open quote's: the quote changed (409), in words.
    await expectRefused(
      await postForm(
        app,
        `/bookings/${quotedId}`,
        { intent: "acceptQuote", sha256: "0".repeat(64) },
        client.cookie,
      ),
      409,
      CHANGED,
      "another quote's hash",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("an expired quote can't be accepted (410) and nothing is agreed", async () => {
    const bookingId = await requestBooking(20, "Expired Hall");
    expect(
      (
        await postForm(
          app,
          `/bookings/${bookingId}`,
          quoteFields({ eventDate: addDays(today, 20) }),
          artist.cookie,
        )
      ).status,
    ).toBe(302);
    const sha256 = (await openHash(bookingId)) ?? "";
    await database.db
      .update(offers)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(and(eq(offers.bookingId, bookingId), eq(offers.status, "open")));
    const before = await snapshot();
    await expectRefused(
      await postForm(
        app,
        `/bookings/${bookingId}`,
        { intent: "acceptQuote", sha256 },
        client.cookie,
      ),
      410,
      "This quote has expired.",
      "an expired quote",
    );
    expect(await snapshot()).toEqual(before);
  });
});
