import { count, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { artistProfiles, bookings, musicSessions } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../tests/support/app-harness";
import { postForm, signedInUser } from "../../tests/support/sessions";
import { createTestDatabase } from "../../tests/support/test-database";

/**
 * An action that fails for a reason that is not the user's (here the database refuses every
 * write to the table, as a full disk or a broken migration would) answers with the route's own
 * words, keeps what was typed and logs the cause: never the bare error page (replyFailure).
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let artist: Person;
let newcomer: Person;
let client: Person;
let artistId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  artist = await signedInUser(app, database.db, "Asha");
  newcomer = await signedInUser(app, database.db, "Nina");
  client = await signedInUser(app, database.db, "Ravi");
  artistId = await addArtistProfile({ db: database.db }, artist.id, { name: "Asha Quartet" });
  await database.db.execute(sql`
    CREATE FUNCTION refuse_writes() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'disk full (test)'; END $$`);
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

/** Every insert into `table` fails while `run` runs. */
async function whileWritesFail<T>(table: string, run: () => Promise<T>): Promise<T> {
  const trigger = sql.raw(`refuse_writes_${table}`);
  const on = sql.raw(table);
  await database.db.execute(
    sql`CREATE TRIGGER ${trigger} BEFORE INSERT ON ${on} FOR EACH ROW EXECUTE FUNCTION refuse_writes()`,
  );
  try {
    return await run();
  } finally {
    await database.db.execute(sql`DROP TRIGGER ${trigger} ON ${on}`);
  }
}

const rows = async (table: typeof artistProfiles | typeof bookings | typeof musicSessions) =>
  (await database.db.select({ n: count() }).from(table))[0]?.n;

/** A well-formed artist profile form. */
const profileFields = (artistName: string) => ({
  artistName,
  genre: "Soul",
  bio: "Sings late.",
  location: "Pune",
  experience: "3 years",
  instruments: "Vocals",
  hourlyRate: "",
  instagram: "",
  youtube: "",
  facebook: "",
});

/** The log lines of failures since `from`. */
const failuresLogged = (from: number) =>
  app.logs.slice(from).filter((line) => line.level >= 50 && line.err !== undefined);

describe("an action the database fails", () => {
  it("creating a profile says 'Failed to create artist profile', keeping the form", async () => {
    const before = await rows(artistProfiles);
    const logged = app.logs.length;
    const res = await whileWritesFail("artist_profiles", () =>
      postForm(app, "/profile-setup", profileFields("Nina Sings"), newcomer.cookie),
    );
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain("Failed to create artist profile. Please try again.");
    expect(html).toContain('value="Nina Sings"');
    expect(html).not.toContain("disk full");
    expect(await rows(artistProfiles)).toBe(before);
    expect(failuresLogged(logged).map((line) => line.msg)).toEqual([
      "create artist profile failed",
    ]);
  });

  it("logging a session says 'Failed to create session', keeping the form", async () => {
    const before = await rows(musicSessions);
    const res = await whileWritesFail("music_sessions", () =>
      postForm(
        app,
        "/sessions/new",
        {
          intent: "create",
          sessionType: "performance",
          title: "Sunday brunch set",
          description: "",
          venue: "Blue Frog",
          location: "Mumbai",
          startTime: "2026-11-15T12:00",
          durationMinutes: "90",
          instruments: "Keys",
          genres: "Jazz",
          tags: "",
        },
        artist.cookie,
      ),
    );
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain("Failed to create session. Please try again.");
    expect(html).toContain('value="Sunday brunch set"');
    expect(await rows(musicSessions)).toBe(before);
  });

  it("a booking request says 'There was an error submitting', keeping the form", async () => {
    const before = await rows(bookings);
    const res = await whileWritesFail("bookings", () =>
      postForm(
        app,
        `/bookings?artist=${artistId}`,
        {
          artistId,
          eventDate: addDays(todayIn(app.env.timeZone), 40),
          startTime: "19:30",
          durationHours: "3",
          venue: "The Blue Room",
          eventType: "Private Event",
          message: "Evening reception, 80 guests.",
        },
        client.cookie,
      ),
    );
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain("There was an error submitting your booking request. Please try again.");
    expect(html).toContain('value="The Blue Room"');
    expect(await rows(bookings)).toBe(before);
  });

  it("a profile is created once the database takes writes again", async () => {
    // Another newcomer: tests run in any order.
    const omar = await signedInUser(app, database.db, "Omar");
    const res = await postForm(app, "/profile-setup", profileFields("Omar Plays"), omar.cookie);
    expect(res.status).toBe(302);
  });
});
