import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artistProfiles, musicSessions, peerVerifications, sessionParticipants } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { SCHEDULE_LOCKED_MESSAGE } from "./music-sessions.server";

/**
 * A session's time is a wall-clock time in its artist's zone: what was typed is read there
 * (whatever the browser's zone) and every page shows it back the same. The owner edits a session;
 * once anyone has verified it, its type, date and time, duration and venue are locked.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let other: Awaited<ReturnType<typeof signedInUser>>;
let ownerArtistId: string;
let otherArtistId: string;
let slug: string;

const WALL = "November 15, 2026, 8:00 PM IST";

beforeAll(async () => {
  database = await createTestDatabase();
  // The server's own zone must not matter: it is not the artist's.
  app = await startTestApp(database, { APP_TIME_ZONE: "America/Los_Angeles" });
  owner = await signedInUser(app, database.db, "Owner");
  other = await signedInUser(app, database.db, "Other");
  ownerArtistId = await addArtistProfile({ db: database.db }, owner.id);
  otherArtistId = await addArtistProfile({ db: database.db }, other.id);
  const [row] = await database.db
    .update(artistProfiles)
    .set({ timeZone: "Asia/Kolkata" })
    .where(eq(artistProfiles.id, ownerArtistId))
    .returning({ slug: artistProfiles.slug });
  slug = row!.slug;
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const sessionFields = (overrides: Record<string, string> = {}) => ({
  sessionType: "performance",
  title: "Late set",
  description: "Standards",
  venue: "Blue Frog",
  location: "Mumbai",
  startTime: "2026-11-15T20:00",
  durationMinutes: "90",
  instruments: "Keys",
  genres: "Jazz",
  tags: "live",
  ...overrides,
});

async function logSession(overrides: Record<string, string> = {}) {
  const res = await postForm(
    app,
    "/sessions/new",
    {
      intent: "create",
      returnTo: "/artist-dashboard?tab=sessions",
      // What an older page in a browser set to UTC would still send: ignored.
      timezoneOffset: "0",
      ...sessionFields(overrides),
    },
    owner.cookie,
  );
  expect(res.status).toBe(302);
  const [row] = await database.db
    .select({ id: musicSessions.id, startTime: musicSessions.startTime })
    .from(musicSessions)
    .where(eq(musicSessions.title, overrides.title ?? "Late set"));
  return row!;
}

const page = async (path: string, cookie?: string) => {
  const res = await app.request(path, { headers: cookie ? { Cookie: cookie } : {} });
  expect(res.status, path).toBe(200);
  return res.text();
};

const update = (id: string, overrides: Record<string, string>, cookie = owner.cookie) =>
  postForm(
    app,
    `/sessions/${id}?panel=edit`,
    { intent: "update", returnTo: "/artist-dashboard?tab=sessions", ...sessionFields(overrides) },
    cookie,
  );

async function stored(id: string) {
  const [row] = await database.db.select().from(musicSessions).where(eq(musicSessions.id, id));
  return row!;
}

describe("a session's time means one thing everywhere", () => {
  it("reads 20:00 in the artist's zone and shows 8:00 PM IST on the card, page and profile", async () => {
    const session = await logSession();
    expect(session.startTime.toISOString()).toBe("2026-11-15T14:30:00.000Z");

    const dashboard = await page("/artist-dashboard?tab=sessions", owner.cookie);
    expect(dashboard).toContain(WALL);
    const detail = await page(`/sessions/${session.id}`);
    expect(detail).toContain(WALL);
    expect(detail).toContain("1.5 hours");
    const profile = await page(`/artist/${slug}`);
    expect(profile).toContain(WALL);
    expect(profile).not.toContain("6:30 AM");
  });

  it("a new session's form starts at now on the artist's clock and names the zone", async () => {
    const html = await page("/sessions/new", owner.cookie);
    expect(html).toContain("In your time zone, Asia/Kolkata (IST).");
    expect(html).not.toContain('name="timezoneOffset"');
  });
});

describe("editing a session", () => {
  it("the owner changes everything while it is self-logged; the new time is read in their zone", async () => {
    const { id } = await logSession({ title: "Editable" });
    const form = await page(`/sessions/${id}?panel=edit`, owner.cookie);
    expect(form).toContain("Edit Session");
    expect(form).toContain('value="2026-11-15T20:00"');

    const res = await update(id, {
      title: "Edited",
      sessionType: "jam",
      venue: "Piano Man",
      startTime: "2026-11-16T21:30",
      durationMinutes: "120",
      tags: "live, late",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(
      `/sessions/${id}?returnTo=${encodeURIComponent("/artist-dashboard?tab=sessions")}`,
    );
    const row = await stored(id);
    expect(row).toMatchObject({
      title: "Edited",
      sessionType: "jam",
      venue: "Piano Man",
      durationMinutes: 120,
      tags: ["live", "late"],
    });
    expect(row.startTime.toISOString()).toBe("2026-11-16T16:00:00.000Z");
    expect(await page(`/sessions/${id}`)).toContain("November 16, 2026, 9:30 PM IST");
  });

  it("anyone else's session is not found, and nothing changes", async () => {
    const { id } = await logSession({ title: "Not theirs" });
    const res = await update(id, { title: "Hijacked" }, other.cookie);
    expect(res.status).toBe(404);
    expect((await stored(id)).title).toBe("Not theirs");
    const html = await app.request(`/sessions/${id}?panel=edit`, {
      headers: { Cookie: other.cookie },
    });
    expect(await html.text()).not.toContain("Edit Session");
  });

  it.each([
    [
      "one peer verification",
      (id: string) =>
        database.db
          .insert(peerVerifications)
          .values({ sessionId: id, verifiedByArtistId: otherArtistId, trustScore: 50 }),
    ],
    [
      "a collaborator who joined",
      (id: string) =>
        database.db.insert(sessionParticipants).values({
          sessionId: id,
          artistProfileId: otherArtistId,
          participationType: "collaborator",
          verificationStatus: "verified",
        }),
    ],
    [
      "verified from a client booking",
      (id: string) =>
        database.db
          .update(musicSessions)
          .set({ isVerified: true, verificationMethod: "client_booking" })
          .where(eq(musicSessions.id, id)),
    ],
  ])(
    "after %s: type, date, time, duration and venue are locked; the rest stays editable",
    async (_what, verify) => {
      const title = `Locked ${_what}`;
      const { id } = await logSession({ title });
      await verify(id);
      const before = await stored(id);

      const changes: Record<string, string>[] = [
        { startTime: "2026-11-15T21:00" },
        { durationMinutes: "60" },
        { venue: "Elsewhere" },
        { sessionType: "jam" },
      ];
      for (const change of changes) {
        const res = await update(id, { title, ...change });
        expect(res.status, JSON.stringify(change)).toBe(409);
        const body = await res.text();
        expect(body).toContain(SCHEDULE_LOCKED_MESSAGE);
        expect(body).toContain("Locked: this session has been verified.");
      }
      expect(await stored(id)).toEqual(before);

      // The edit form shows the locked fields read-only.
      const form = await page(`/sessions/${id}?panel=edit`, owner.cookie);
      expect(form).toMatch(
        /<input[^>]*name="startTime"[^>]*readOnly|<input[^>]*readOnly[^>]*name="startTime"/i,
      );
      expect(form).toMatch(
        /<input[^>]*name="venue"[^>]*readOnly|<input[^>]*readOnly[^>]*name="venue"/i,
      );

      const res = await update(id, {
        title: `${title}, renamed`,
        description: "Second set added",
        location: "Bandra, Mumbai",
        tags: "live, encore",
        instruments: "Keys, Vocals",
      });
      expect(res.status).toBe(302);
      const after = await stored(id);
      expect(after).toMatchObject({
        title: `${title}, renamed`,
        description: "Second set added",
        location: "Bandra, Mumbai",
        tags: ["live", "encore"],
        instrumentsUsed: ["Keys", "Vocals"],
        startTime: before.startTime,
        durationMinutes: before.durationMinutes,
        venue: before.venue,
        sessionType: before.sessionType,
      });
    },
  );
});

describe("without JavaScript", () => {
  it("the type filter is a GET form with a submit button, and filters", async () => {
    await logSession({ title: "Evening set" });
    await logSession({ title: "Jam night", sessionType: "jam" });
    const all = await page(`/artist/${slug}`);
    const search = /<form role="search"[^>]*method="get"[^>]*>[\s\S]*?<\/form>/.exec(all)?.[0];
    expect(search).toContain('name="stype"');
    expect(search).toMatch(/<button type="submit"[^>]*>Search<\/button>/);
    const list = (html: string) => /<ul aria-label="Sessions"[\s\S]*?<\/ul><\/div>/.exec(html)?.[0];
    expect(list(all)).toContain("Evening set");
    expect(list(all)).toContain("Jam night");
    const jams = list(await page(`/artist/${slug}?stype=jam`));
    expect(jams).toContain("Jam night");
    expect(jams).not.toContain("Evening set");
  });

  it("the Portfolio tab is a link that opens the page on that tab", async () => {
    const html = await page(`/artist/${slug}`);
    expect(html).toContain(`href="/artist/${slug}?stab=portfolio"`);
    const portfolio = await page(`/artist/${slug}?stab=portfolio`);
    const panel = /<div role="tabpanel" id="[^"]*-panel-portfolio"[^>]*>/.exec(portfolio)?.[0];
    expect(panel).toBeDefined();
    expect(panel).not.toContain("hidden");
    expect(portfolio).toMatch(/<div role="tabpanel" id="[^"]*-panel-sessions"[^>]*hidden/);
  });
});
