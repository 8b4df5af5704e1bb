/**
 * The one way to make users, artists and sessions outside a request: the tests and the demo seed
 * (seed/seed.ts) both build their data here. Artists are created through the domain's own
 * `createArtistProfile`, so what every profile gets (the 'artist' role, a free slug, a private
 * auto-generated portfolio) is decided in one place, for real sign-ups, tests and demo data alike.
 *
 * It lives with the seed, not under tests/, because the seed ships with the server and must not
 * import test code; tests import it as `~seed/factories`.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { ArtistProfileInput } from "~/features/artists/artists.schema";
import { createArtistProfile } from "~/features/artists/artists.server";
import type { Role, SignedInActor } from "~/lib/actor";
import type { Database, Queryable } from "~db/client";
import { musicSessions, profiles, userRoles, users } from "~db/schema";

export type UserOverrides = {
  /** A fixed id (the seed's stable ids); a user that already has it is left as it is. */
  id?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  /** Roles given besides the ones the domain adds (creating a profile adds 'artist'). */
  roles?: readonly Role[];
};

export type CreatedUser = { id: string; name: string; email: string };

/**
 * A confirmed user with a profile; unique data by default, so test files can run in parallel.
 * Creating it again with the same id inserts nothing (the seed runs on every fresh start).
 */
export async function createUser(
  db: Queryable,
  overrides: UserOverrides = {},
): Promise<CreatedUser> {
  const id = overrides.id ?? randomUUID();
  const firstName = overrides.firstName ?? "Test";
  const lastName = overrides.lastName ?? "User";
  const name = `${firstName} ${lastName}`;
  const email = overrides.email ?? `user-${id}@example.com`;
  await db
    .insert(users)
    .values({ id, name, email, emailVerified: true })
    .onConflictDoNothing({ target: users.id });
  await db
    .insert(profiles)
    .values({ id, firstName, lastName, email })
    .onConflictDoNothing({ target: profiles.id });
  for (const role of overrides.roles ?? []) {
    await db.insert(userRoles).values({ userId: id, role }).onConflictDoNothing();
  }
  return { id, name, email };
}

/** What the artist profile form would hold; `name` is the artist name. */
export type ArtistOverrides = Partial<Omit<ArtistProfileInput, "artistName">> & { name?: string };

export type CreatedArtist = { user: CreatedUser; artistId: string; name: string };

/**
 * A user who has an artist profile, made by the domain's `createArtistProfile`. The artist name
 * defaults to the user's first name and a piece of their id (unique); the rest to a Chicago jazz
 * pianist. `created` is false when the user already had a profile (its id is returned).
 */
export async function createArtist(
  ctx: { db: Database },
  overrides: ArtistOverrides & { user?: UserOverrides } = {},
): Promise<CreatedArtist & { created: boolean }> {
  const { user: userOverrides, ...profile } = overrides;
  const user = await createUser(ctx.db, { firstName: "Artist", ...userOverrides });
  const firstName = userOverrides?.firstName ?? "Artist";
  const name = profile.name ?? `${firstName} ${user.id.slice(0, 8)}`;
  const { id, created } = await profileFor(ctx, user.id, { ...profile, name });
  return { user, artistId: id, name, created };
}

/**
 * An artist profile for a user who already exists (one signed in through the app, say), made the
 * same way as `createArtist`'s; returns the profile's id.
 */
export async function addArtistProfile(
  ctx: { db: Database },
  userId: string,
  overrides: ArtistOverrides = {},
): Promise<string> {
  const name = overrides.name ?? `Artist ${userId.slice(0, 8)}`;
  return (await profileFor(ctx, userId, { ...overrides, name })).id;
}

function profileFor(
  ctx: { db: Database },
  userId: string,
  { name, ...input }: ArtistOverrides & { name: string },
) {
  // The user asking for their own profile, as the profile-setup form's action does.
  const actor: SignedInActor = { id: userId, roles: [], artistProfileId: null };
  return createArtistProfile(ctx, actor, {
    artistName: name,
    bio: "Bio",
    genre: "Jazz",
    location: "Chicago IL",
    experience: "3 years",
    instruments: "Piano",
    hourlyRate: 2000,
    ...input,
  });
}

/** The actor the domain expects for an artist made here. */
export function artistActor(artist: CreatedArtist): SignedInActor & { artistProfileId: string } {
  return { id: artist.user.id, roles: ["artist"], artistProfileId: artist.artistId };
}

/** A session of the artist's (a 90-minute performance unless told otherwise); returns its id. */
export async function createSession(
  db: Queryable,
  artistId: string,
  values: Partial<typeof musicSessions.$inferInsert> = {},
): Promise<string> {
  const [row] = await db
    .insert(musicSessions)
    .values({
      artistProfileId: artistId,
      title: "Gig",
      sessionType: "performance",
      durationMinutes: 90,
      ...values,
    })
    .returning({ id: musicSessions.id });
  if (!row) throw new Error("no session");
  return row.id;
}

/**
 * An artist whose confirmations count (docs/decisions/046): an account `daysOld` days old (30
 * unless told) with a session of their own logged back then. Made like `createArtist`, then
 * backdated.
 */
export async function createEstablishedArtist(
  ctx: { db: Database },
  overrides: ArtistOverrides & { user?: UserOverrides; daysOld?: number } = {},
): Promise<CreatedArtist & { created: boolean }> {
  const { daysOld = 30, ...rest } = overrides;
  const artist = await createArtist(ctx, rest);
  const then = new Date(Date.now() - daysOld * 86_400_000);
  await ctx.db.update(users).set({ createdAt: then }).where(eq(users.id, artist.user.id));
  await createSession(ctx.db, artist.artistId, {
    title: "Rehearsal",
    sessionType: "practice",
    startTime: then,
    createdAt: then,
  });
  return artist;
}
