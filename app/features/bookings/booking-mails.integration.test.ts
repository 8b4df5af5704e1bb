import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, formatLongDate, todayIn } from "~/lib/dates";
import { profiles } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { type ReceivedMail, startSmtpSink } from "../../../tests/support/smtp-sink";
import { createTestDatabase } from "../../../tests/support/test-database";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let artist: Person;
let client: Person;
let artistId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpSink();
  app = await startTestApp(database, { SMTP_URL: smtp.url });
  artist = await signedInUser(app, database.db, "Asha");
  client = await signedInUser(app, database.db, "Ravi");
  await database.db.update(profiles).set({ lastName: "Menon" }).where(eq(profiles.id, client.id));
  artistId = await addArtistProfile({ db: database.db }, artist.id, {
    name: "Asha Quartet",
    hourlyRate: 2500,
  });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
  await database?.dispose();
});

const LINK = /https?:\/\/[^\s"'<>]+/g;
const linksOf = (text: string | null) => [...(text ?? "").matchAll(LINK)].map((m) => m[0]);

/** The mails that arrived since `from`, as [recipient, subject]. */
const since = (from: number) => smtp.mails.slice(from);
const summary = (mails: ReceivedMail[]) => mails.map((m) => [m.to.join(","), m.subject]);

/** Every mail has a plain-text part and an HTML part that say the same and link the same page. */
function expectWellFormed(mail: ReceivedMail, bookingUrl: string) {
  expect(mail.textPart, mail.subject).toBeTruthy();
  expect(mail.htmlPart, mail.subject).toBeTruthy();
  expect(mail.textPart).toMatch(/— GigLedger\s*$/);
  expect(linksOf(mail.textPart)).toEqual([bookingUrl]);
  expect(mail.htmlPart).toContain(`<a href="${bookingUrl}">`);
}

async function request(fields: Record<string, string>) {
  const res = await postForm(
    app,
    `/bookings?artist=${artistId}`,
    {
      artistId,
      durationHours: "2.5",
      venue: "The Blue Room",
      eventType: "Wedding",
      ...fields,
    },
    client.cookie,
  );
  expect(res.status).toBe(302);
  const location = res.headers.get("location") ?? "";
  expect(location).toMatch(/^\/bookings\/[0-9a-f-]{36}$/);
  return location.slice("/bookings/".length);
}

const act = (bookingId: string, fields: Record<string, string>, cookie: string) =>
  postForm(app, `/bookings/${bookingId}`, fields, cookie);

describe("every mail of a booking's life, read from a real SMTP server", () => {
  it("request → both; messages → throttled; accept; cancel — each to the right person, with text, subject and link", async () => {
    const today = todayIn(app.env.timeZone);
    const date = addDays(today, 14);
    const longDate = formatLongDate(date);
    const start = smtp.mails.length;

    // ── The request: the artist gets everything needed to answer, the client a confirmation ──
    const id = await request({
      eventDate: date,
      startTime: "19:00",
      message: "Evening reception, 80 guests.",
    });
    const url = new URL(`/bookings/${id}`, app.env.appUrl).href;
    expect(url.startsWith(app.env.appUrl.origin)).toBe(true);
    const requested = since(start);
    expect(summary(requested)).toEqual([
      [client.email, "Your booking request to Asha Quartet was sent"],
      [artist.email, `New booking request for ${longDate}`],
    ]);
    const [confirmation, newRequest] = requested as [ReceivedMail, ReceivedMail];
    for (const line of [
      "Hi Asha Quartet,",
      `Ravi Menon would like to book you for ${longDate} at 7:00 PM IST.`,
      `Date: ${longDate}`,
      "Time: 7:00 PM IST",
      "Venue: The Blue Room",
      "Duration: 2.5 hours",
      "Event type: Wedding",
      "Amount: ₹6,250.00",
      "Their message:\nEvening reception, 80 guests.",
      "Accept or decline the request, or message the client, here:",
    ]) {
      expect(newRequest.textPart?.replace(/\r\n/g, "\n")).toContain(line);
    }
    for (const line of [
      "Hi Ravi Menon,",
      `Your request to book Asha Quartet for ${longDate} at 7:00 PM IST has been sent.`,
      "Venue: The Blue Room",
      "Amount: ₹6,250.00",
    ]) {
      expect(confirmation.textPart?.replace(/\r\n/g, "\n")).toContain(line);
    }
    // The link answers: the artist opens it and finds the request with its buttons.
    const opened = await app.request(new URL(linksOf(newRequest.textPart)[0] ?? "").pathname, {
      headers: { Cookie: artist.cookie },
    });
    expect(opened.status).toBe(200);
    const page = await opened.text();
    expect(page).toContain("Accept Booking");
    expect(page).toContain("7:00 PM");

    // ── Messages: one mail, then quiet while unread; reading lets the next one through ──────
    let mark = smtp.mails.length;
    const say = (who: Person, message: string, fields: Record<string, string> = { stay: "1" }) =>
      act(id, { intent: "message", message, ...fields }, who.cookie);
    expect((await say(client, "Is there a piano at the venue?")).status).toBe(200);
    expect((await say(client, "And parking for the van?")).status).toBe(200);
    expect(summary(since(mark))).toEqual([[artist.email, "New message from Ravi Menon"]]);
    expect(since(mark)[0]?.textPart).toContain("Is there a piano at the venue?");
    // The artist opens the booking (reads), then the client writes again: mailed again.
    expect(
      (await app.request(`/bookings/${id}`, { headers: { Cookie: artist.cookie } })).status,
    ).toBe(200);
    expect((await say(client, "Thanks!")).status).toBe(200);
    // The artist answers without JavaScript: a redirect back to the page.
    const reply = await say(artist, "Yes, a grand piano.", {});
    expect(reply.status).toBe(302);
    expect(reply.headers.get("location")).toBe(`/bookings/${id}#messages`);
    expect(summary(since(mark))).toEqual([
      [artist.email, "New message from Ravi Menon"],
      [artist.email, "New message from Ravi Menon"],
      [client.email, "New message from Asha User"],
    ]);
    expect(since(mark)[1]?.textPart).toContain("Thanks!");
    expect(since(mark)[2]?.textPart).toContain("Yes, a grand piano.");

    // ── Accept → the client; cancel by the client → the artist ──────────────────────────────
    mark = smtp.mails.length;
    expect((await act(id, { intent: "accept" }, artist.cookie)).status).toBe(302);
    expect((await act(id, { intent: "cancel" }, client.cookie)).status).toBe(302);
    expect(summary(since(mark))).toEqual([
      [client.email, "Asha Quartet accepted your booking"],
      [artist.email, `Ravi Menon cancelled the booking for ${longDate}`],
    ]);
    expect(since(mark)[0]?.textPart).toContain(
      `Good news: Asha Quartet confirmed your booking for ${longDate} at 7:00 PM IST.`,
    );
    expect(since(mark)[1]?.textPart).toContain(
      `Ravi Menon cancelled the booking for ${longDate} at 7:00 PM IST (Wedding at The Blue Room).`,
    );
    expect(since(mark)[1]?.textPart).toContain("The date is available again in your calendar.");

    // Every mail this booking caused, in order, and nothing else names it.
    const all = smtp.mails.filter((m) => m.textPart?.includes(url));
    expect(summary(all)).toEqual([
      [client.email, "Your booking request to Asha Quartet was sent"],
      [artist.email, `New booking request for ${longDate}`],
      [artist.email, "New message from Ravi Menon"],
      [artist.email, "New message from Ravi Menon"],
      [client.email, "New message from Asha User"],
      [client.email, "Asha Quartet accepted your booking"],
      [artist.email, `Ravi Menon cancelled the booking for ${longDate}`],
    ]);
    for (const mail of all) expectWellFormed(mail, url);
  });

  it("a decline with a reason reaches the client, who also reads it on the booking page", async () => {
    const date = addDays(todayIn(app.env.timeZone), 20);
    const id = await request({ eventDate: date });
    const url = new URL(`/bookings/${id}`, app.env.appUrl).href;
    const mark = smtp.mails.length;
    const declined = await act(
      id,
      { intent: "decline", reason: "I'm abroad that week, sorry." },
      artist.cookie,
    );
    expect(declined.status).toBe(302);
    expect(summary(since(mark))).toEqual([[client.email, "Asha Quartet declined your booking"]]);
    const mail = since(mark)[0] as ReceivedMail;
    expectWellFormed(mail, url);
    const text = mail.textPart?.replace(/\r\n/g, "\n") ?? "";
    expect(text).toContain(
      `Asha Quartet can't take your booking for ${formatLongDate(date)}. You can look for another date or artist on GigLedger.`,
    );
    expect(text).toContain("Their reason:\nI'm abroad that week, sorry.");
    expect(text).toContain("Time: not given");
    const page = await (
      await app.request(`/bookings/${id}`, { headers: { Cookie: client.cookie } })
    ).text();
    expect(page).toContain(">Declined<");
    expect(page).toContain("Asha Quartet declined this request.");
    expect(page).toContain("Reason: I&#x27;m abroad that week, sorry.");
  });
});
