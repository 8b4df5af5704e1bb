import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIn } from "~/lib/dates";
import { artistProfiles } from "~db/schema";
import { artistActor, createArtist } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { clearAvailability, getAvailability, setAvailability } from "./availability.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

/** An artist whose profile keeps the given IANA zone. */
async function artistIn(timeZone: string) {
  const artist = await createArtist({ db: database.db });
  await database.db
    .update(artistProfiles)
    .set({ timeZone })
    .where(eq(artistProfiles.id, artist.artistId));
  return artist;
}

describe("the calendar's today is the artist's today", () => {
  // Kiritimati (UTC+14) is always a day or two ahead of Pago Pago (UTC−11).
  const ahead = "Pacific/Kiritimati";
  const behind = "Pacific/Pago_Pago";

  it("accepts the artist's own today, and refuses a day that has passed where the artist is", async () => {
    const date = todayIn(behind);
    const late = await artistIn(behind);
    await setAvailability(database, artistActor(late), { date, status: "available", notes: null });
    expect(
      await getAvailability(database, null, { artistId: late.artistId, from: date, to: date }),
    ).toEqual([{ date, status: "available", notes: null }]);
    await clearAvailability(database, artistActor(late), { date });

    const early = await artistIn(ahead);
    await expect(
      setAvailability(database, artistActor(early), { date, status: "booked", notes: null }),
    ).rejects.toMatchObject({ code: "invalid", message: "Past dates can't be changed." });
    await expect(clearAvailability(database, artistActor(early), { date })).rejects.toMatchObject({
      code: "invalid",
    });
  });
});
