import type { Queryable } from "~db/client";
import { musicSessions } from "~db/schema";
import { addArtistProfile, createUser } from "../../../tests/support/factories";

/** A user with an artist profile; unique data so test files can run in parallel. */
export async function createArtist(db: Queryable, name = "Artist") {
  const user = await createUser(db, { firstName: name });
  const artistProfileId = await addArtistProfile(db, user.id, {
    name: `${name} ${user.id.slice(0, 8)}`,
  });
  return { userId: user.id, artistProfileId };
}

export async function insertSession(
  db: Queryable,
  artistProfileId: string,
  values: Partial<typeof musicSessions.$inferInsert> = {},
) {
  const [row] = await db
    .insert(musicSessions)
    .values({
      artistProfileId,
      title: "Gig",
      sessionType: "performance",
      durationMinutes: 90,
      ...values,
    })
    .returning({ id: musicSessions.id });
  if (!row) throw new Error("no session");
  return row.id;
}
