import { randomUUID } from "node:crypto";
import type { Queryable } from "~db/client";
import { artistProfiles, profiles, users } from "~db/schema";

/** A user with a profile; unique data so test files can run in parallel. */
export async function createUser(
  db: Queryable,
  overrides: { firstName?: string; email?: string } = {},
) {
  const id = randomUUID();
  const firstName = overrides.firstName ?? "Test";
  const email = overrides.email ?? `user-${id}@example.com`;
  await db.insert(users).values({ id, name: `${firstName} User`, email, emailVerified: true });
  await db.insert(profiles).values({ id, firstName, lastName: "User", email });
  return { id, name: `${firstName} User`, email };
}

/** An artist profile for an existing user, with a unique slug; returns its id. */
export async function addArtistProfile(
  db: Queryable,
  userId: string,
  overrides: { name?: string; hourlyRate?: number | null } = {},
) {
  const name = overrides.name ?? `Artist ${userId.slice(0, 8)}`;
  const [artist] = await db
    .insert(artistProfiles)
    .values({
      userId,
      slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${userId.slice(0, 8)}`,
      artistName: name,
      bio: "Bio",
      genre: "Jazz",
      location: "Chicago IL",
      experience: "3 years",
      instruments: "Piano",
      hourlyRate: overrides.hourlyRate === undefined ? 2000 : overrides.hourlyRate,
    })
    .returning({ id: artistProfiles.id });
  if (!artist) throw new Error("artist profile was not created");
  return artist.id;
}

/** A user who has an artist profile. */
export async function createArtist(
  db: Queryable,
  overrides: { hourlyRate?: number | null; name?: string } = {},
) {
  const user = await createUser(db, { firstName: "Artist" });
  const name = overrides.name ?? `Artist ${user.id.slice(0, 8)}`;
  const artistId = await addArtistProfile(db, user.id, { ...overrides, name });
  return { user, artistId, name };
}
