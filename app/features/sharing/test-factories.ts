import { randomBytes } from "node:crypto";
import type { Queryable } from "~db/client";
import { artistProfiles, musicSessions, users } from "~db/schema";

/** A user with an artist profile; unique data so test files can run in parallel. */
export async function createArtist(db: Queryable, name = "Artist") {
  const suffix = randomBytes(5).toString("hex");
  const [user] = await db
    .insert(users)
    .values({
      name: `${name} ${suffix}`,
      email: `${name.toLowerCase()}.${suffix}@example.com`,
      emailVerified: true,
    })
    .returning({ id: users.id });
  if (!user) throw new Error("no user");
  const [artist] = await db
    .insert(artistProfiles)
    .values({
      userId: user.id,
      slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${suffix}`,
      artistName: `${name} ${suffix}`,
      bio: "Plays things.",
      genre: "Jazz",
      location: "Chicago IL",
      experience: "5 years",
      instruments: "Guitar",
    })
    .returning({ id: artistProfiles.id });
  if (!artist) throw new Error("no artist");
  return { userId: user.id, artistProfileId: artist.id };
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
