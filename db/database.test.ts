import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtist } from "~seed/factories";
import { createTestDatabase } from "../tests/support/test-database";
import {
  artistProfiles,
  availability,
  bookings,
  musicSessions,
  peerVerifications,
  sessionParticipants,
} from "./schema";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
const today = "2026-11-21";

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.dispose();
});

/** The PostgreSQL error code behind a Drizzle query error. */
async function pgErrorCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? (error as { code?: string }).code;
  }
  return undefined;
}

/** An artist made the one way (seed/factories.ts), with a `test-` slug. */
const newArtist = (suffix: string) => createArtist({ db: handle.db }, { name: `Test ${suffix}` });

describe("schema constraints", () => {
  it("refuses values outside the enumerations (CHECK)", async () => {
    const { artistId, user } = await newArtist("checks");
    const session = { artistProfileId: artistId, title: "t" };
    expect(
      await pgErrorCode(
        handle.db.insert(musicSessions).values({ ...session, sessionType: "concert" as never }),
      ),
    ).toBe("23514");
    const [ok] = await handle.db
      .insert(musicSessions)
      .values({ ...session, sessionType: "jam" })
      .returning({ id: musicSessions.id });
    expect(
      await pgErrorCode(
        handle.db
          .insert(peerVerifications)
          .values({ sessionId: ok!.id, verifiedByArtistId: artistId, trustScore: 60 }),
      ),
    ).toBe("23514");
    const booking = {
      artistProfileId: artistId,
      clientUserId: user.id,
      eventDate: today,
      venue: "Hall",
      eventType: "Wedding" as const,
      totalAmount: 300,
    };
    expect(
      await pgErrorCode(handle.db.insert(bookings).values({ ...booking, durationHours: 1.3 })),
    ).toBe("23514");
    expect(
      await pgErrorCode(handle.db.insert(bookings).values({ ...booking, durationHours: 13 })),
    ).toBe("23514");
    expect(
      await pgErrorCode(
        handle.db
          .insert(bookings)
          .values({ ...booking, durationHours: 2, status: "done" as never }),
      ),
    ).toBe("23514");
    expect(
      await pgErrorCode(
        handle.db
          .insert(bookings)
          .values({ ...booking, durationHours: 2, rating: 6, ratingGiven: true }),
      ),
    ).toBe("23514");
    expect(
      await pgErrorCode(
        handle.db
          .insert(availability)
          .values({ artistProfileId: artistId, date: today, status: "maybe" as never }),
      ),
    ).toBe("23514");
    expect(
      await pgErrorCode(
        handle.db.insert(artistProfiles).values({
          userId: user.id,
          slug: "Bad Slug",
          artistName: "x",
          bio: "",
          genre: "",
          location: "",
          experience: "",
          instruments: "",
        }),
      ),
    ).toBe("23514");
  });

  it("keeps one availability row per artist and date, one slug, one confirmed booking per date", async () => {
    const { artistId, user } = await newArtist("unique");
    await handle.db
      .insert(availability)
      .values({ artistProfileId: artistId, date: today, status: "available" });
    expect(
      await pgErrorCode(
        handle.db
          .insert(availability)
          .values({ artistProfileId: artistId, date: today, status: "booked" }),
      ),
    ).toBe("23505");
    const other = await newArtist("unique-2");
    expect(
      await pgErrorCode(
        handle.db
          .update(artistProfiles)
          .set({ slug: "test-unique" })
          .where(eq(artistProfiles.id, other.artistId)),
      ),
    ).toBe("23505");
    const booking = {
      artistProfileId: artistId,
      clientUserId: user.id,
      eventDate: today,
      durationHours: 2,
      venue: "Hall",
      eventType: "Wedding" as const,
      totalAmount: 300,
    };
    await handle.db.insert(bookings).values({ ...booking, status: "confirmed" });
    await handle.db.insert(bookings).values({ ...booking, status: "pending" });
    expect(
      await pgErrorCode(handle.db.insert(bookings).values({ ...booking, status: "confirmed" })),
    ).toBe("23505");
  });

  it("keeps one participant row per session, artist and type", async () => {
    const owner = await newArtist("owner");
    const peer = await newArtist("peer");
    const [s] = await handle.db
      .insert(musicSessions)
      .values({ artistProfileId: owner.artistId, title: "Gig", sessionType: "performance" })
      .returning({ id: musicSessions.id });
    const row = {
      sessionId: s!.id,
      artistProfileId: peer.artistId,
      participationType: "collaborator" as const,
      verificationStatus: "verified" as const,
    };
    await handle.db.insert(sessionParticipants).values(row);
    expect(await pgErrorCode(handle.db.insert(sessionParticipants).values(row))).toBe("23505");
    await handle.db
      .insert(sessionParticipants)
      .values({ ...row, participationType: "verifier", verificationStatus: "pending" });
  });
});

describe("artist counters", () => {
  it("follow the music_sessions rows through inserts, updates and deletes", async () => {
    const { artistId } = await newArtist("counters");
    const insert = (minutes: number, verified: boolean) =>
      handle.db
        .insert(musicSessions)
        .values({
          artistProfileId: artistId,
          title: "s",
          sessionType: "practice",
          durationMinutes: minutes,
          isVerified: verified,
        })
        .returning({ id: musicSessions.id });
    const [a] = await insert(90, false);
    await insert(60, true);
    const [c] = await insert(30, true);
    await handle.db
      .update(musicSessions)
      .set({ isVerified: true, durationMinutes: 120 })
      .where(eq(musicSessions.id, a!.id));
    await handle.db.delete(musicSessions).where(eq(musicSessions.id, c!.id));
    const [counters] = await handle.db
      .select({
        total: artistProfiles.totalSessions,
        verified: artistProfiles.verifiedSessions,
        minutes: artistProfiles.totalMinutes,
      })
      .from(artistProfiles)
      .where(eq(artistProfiles.id, artistId));
    expect(counters).toEqual({ total: 2, verified: 2, minutes: 180 });
  });
});
