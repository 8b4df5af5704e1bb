import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { isUuid } from "~/lib/ids";
import type { Queryable } from "~db/client";
import { artistProfiles, musicSessions, portfolios, type SocialLinks, userRoles } from "~db/schema";
import type { ArtistProfileInput, DiscoveryQuery } from "./artists.schema";
import { DISCOVERY_PAGE_SIZE } from "./artists.schema";
import { slugify } from "./slug";

export type ArtistSummary = {
  id: string;
  slug: string;
  artistName: string;
  genre: string;
  location: string;
  bio: string;
  instruments: string;
  rating: number;
  totalReviews: number;
  verifiedSessions: number;
  isAvailable: boolean;
  avatarPath: string | null;
};

const summaryColumns = {
  id: artistProfiles.id,
  slug: artistProfiles.slug,
  artistName: artistProfiles.artistName,
  genre: artistProfiles.genre,
  location: artistProfiles.location,
  bio: artistProfiles.bio,
  instruments: artistProfiles.instruments,
  rating: artistProfiles.rating,
  totalReviews: artistProfiles.totalReviews,
  verifiedSessions: artistProfiles.verifiedSessions,
  isAvailable: artistProfiles.isAvailable,
  avatarPath: artistProfiles.avatarPath,
};

/** The landing page's featured artists: most verified sessions first, then the best rated. */
export async function getFeaturedArtists(db: Queryable, limit = 2): Promise<ArtistSummary[]> {
  return db
    .select(summaryColumns)
    .from(artistProfiles)
    .orderBy(
      descNullsLast(artistProfiles.verifiedSessions),
      descNullsLast(artistProfiles.rating),
      artistProfiles.id,
    )
    .limit(limit);
}

/**
 * `DESC NULLS LAST`, exactly as the indexes are built: a plain DESC means NULLS FIRST, which no
 * index serves, and PostgreSQL would then sort every match (measured: 2.7 s at 1M artists).
 */
const descNullsLast = (column: AnyPgColumn) => sql`${column} DESC NULLS LAST`;

/** `%text%` for LIKE, with the user's own % _ \ taken literally. */
function containsPattern(text: string) {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Discovery: the search matches name, genre or instruments (case-insensitive, one trigram index
 * over the three); the genre filter contains; the location filter is exact. Best rated first.
 * One row more than a page tells whether there is a next page, without counting every match.
 */
export async function searchArtists(db: Queryable, query: DiscoveryQuery) {
  const conditions = [];
  if (query.q) {
    conditions.push(
      sql`lower(${artistProfiles.artistName} || ' ' || ${artistProfiles.genre} || ' ' || ${artistProfiles.instruments}) LIKE ${containsPattern(query.q)}`,
    );
  }
  if (query.genre)
    conditions.push(sql`lower(${artistProfiles.genre}) LIKE ${containsPattern(query.genre)}`);
  if (query.location) conditions.push(eq(artistProfiles.location, query.location));
  const rows = await db
    .select(summaryColumns)
    .from(artistProfiles)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(descNullsLast(artistProfiles.rating), artistProfiles.id)
    .limit(DISCOVERY_PAGE_SIZE + 1)
    .offset((query.page - 1) * DISCOVERY_PAGE_SIZE);
  return {
    artists: rows.slice(0, DISCOVERY_PAGE_SIZE),
    hasMore: rows.length > DISCOVERY_PAGE_SIZE,
  };
}

export type ArtistProfile = ArtistSummary & {
  userId: string;
  experience: string;
  hourlyRate: number | null;
  socialLinks: SocialLinks;
  totalSessions: number;
  totalMinutes: number;
};

const profileColumns = {
  ...summaryColumns,
  userId: artistProfiles.userId,
  experience: artistProfiles.experience,
  hourlyRate: artistProfiles.hourlyRate,
  socialLinks: artistProfiles.socialLinks,
  totalSessions: artistProfiles.totalSessions,
  totalMinutes: artistProfiles.totalMinutes,
};

/** A profile by its UUID or its slug; null when there is none. */
export async function getArtistProfile(
  db: Queryable,
  idOrSlug: string,
): Promise<ArtistProfile | null> {
  const where = isUuid(idOrSlug)
    ? eq(artistProfiles.id, idOrSlug)
    : eq(artistProfiles.slug, idOrSlug.toLowerCase());
  const [row] = await db.select(profileColumns).from(artistProfiles).where(where);
  return row ? { ...row, socialLinks: parseSocialLinks(row.socialLinks) } : null;
}

export async function getArtistProfileOfUser(
  db: Queryable,
  userId: string,
): Promise<ArtistProfile | null> {
  const [row] = await db
    .select(profileColumns)
    .from(artistProfiles)
    .where(eq(artistProfiles.userId, userId));
  return row ? { ...row, socialLinks: parseSocialLinks(row.socialLinks) } : null;
}

/** Social links may have been stored as a JSON string by older clients. */
function parseSocialLinks(value: unknown): SocialLinks {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return {};
    }
  }
  if (!v || typeof v !== "object") return {};
  const out: SocialLinks = {};
  for (const key of ["instagram", "youtube", "facebook"] as const) {
    const link = (v as Record<string, unknown>)[key];
    if (typeof link === "string" && /^https?:\/\//.test(link)) out[key] = link;
  }
  return out;
}

export type RecentPerformance = {
  id: string;
  title: string;
  venue: string | null;
  sessionType: string;
  startTime: Date;
  durationMinutes: number;
  isVerified: boolean;
};

/** Performances already played, newest first. */
export async function getRecentPerformances(
  db: Queryable,
  artistId: string,
  limit = 5,
): Promise<RecentPerformance[]> {
  return db
    .select({
      id: musicSessions.id,
      title: musicSessions.title,
      venue: musicSessions.venue,
      sessionType: musicSessions.sessionType,
      startTime: musicSessions.startTime,
      durationMinutes: musicSessions.durationMinutes,
      isVerified: musicSessions.isVerified,
    })
    .from(musicSessions)
    .where(
      and(
        eq(musicSessions.artistProfileId, artistId),
        eq(musicSessions.sessionType, "performance"),
        lt(musicSessions.startTime, new Date()),
      ),
    )
    .orderBy(desc(musicSessions.startTime))
    .limit(limit);
}

/** The id of the artist's active portfolio when it is public; null otherwise. */
export async function getPublicPortfolioId(
  db: Queryable,
  artistId: string,
): Promise<string | null> {
  const [row] = await db
    .select({ id: portfolios.id })
    .from(portfolios)
    .where(
      and(
        eq(portfolios.artistProfileId, artistId),
        eq(portfolios.isActive, true),
        eq(portfolios.isPublic, true),
      ),
    );
  return row?.id ?? null;
}

function profileValues(input: ArtistProfileInput) {
  const socialLinks: SocialLinks = {};
  if (input.instagram) socialLinks.instagram = input.instagram;
  if (input.youtube) socialLinks.youtube = input.youtube;
  if (input.facebook) socialLinks.facebook = input.facebook;
  return {
    artistName: input.artistName,
    genre: input.genre,
    bio: input.bio,
    location: input.location,
    experience: input.experience,
    instruments: input.instruments,
    hourlyRate: input.hourlyRate,
    socialLinks,
  };
}

const UNIQUE_VIOLATION = "23505";
function isUniqueViolation(error: unknown, constraint?: string) {
  const e =
    (error as { cause?: { code?: string; constraint?: string } }).cause ??
    (error as { code?: string; constraint?: string });
  return e?.code === UNIQUE_VIOLATION && (!constraint || e.constraint === constraint);
}

/**
 * Creates the user's artist profile in one transaction: the 'artist' role (kept if present), the
 * profile with a unique slug, and a private auto-generated portfolio. Returns the existing
 * profile's id instead when the user already has one.
 */
export async function createArtistProfile(
  db: Queryable,
  userId: string,
  input: ArtistProfileInput,
) {
  const existing = await getArtistProfileOfUser(db, userId);
  if (existing) return { id: existing.id, created: false };
  const base = slugify(input.artistName);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const id = await db.transaction(async (tx) => {
        await tx.insert(userRoles).values({ userId, role: "artist" }).onConflictDoNothing();
        const slug = await freeSlug(tx, base);
        const [profile] = await tx
          .insert(artistProfiles)
          .values({ userId, slug, ...profileValues(input) })
          .returning({ id: artistProfiles.id });
        if (!profile) throw new Error("artist profile was not created");
        await tx.insert(portfolios).values({
          artistProfileId: profile.id,
          title: `${input.artistName}'s Portfolio`,
          isPublic: false,
          autoGenerated: true,
        });
        return profile.id;
      });
      return { id, created: true };
    } catch (error) {
      // Two sign-ups racing for one slug: try the next free one. A second profile for the same
      // user loses to the unique user_id and returns the first.
      if (isUniqueViolation(error, "artist_profiles_user_id_unique")) {
        const profile = await getArtistProfileOfUser(db, userId);
        if (profile) return { id: profile.id, created: false };
      }
      if (!isUniqueViolation(error, "artist_profiles_slug_unique")) throw error;
    }
  }
  throw new Error("Could not find a free address for this artist name. Please try again.");
}

/** The first of `base`, `base-2`, `base-3`… not yet used, found with one indexed query. */
async function freeSlug(db: Queryable, base: string) {
  const taken = await db
    .select({ slug: artistProfiles.slug })
    .from(artistProfiles)
    .where(
      sql`${artistProfiles.slug} = ${base} OR ${artistProfiles.slug} LIKE ${`${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`}`,
    );
  const used = new Set(taken.map((t) => t.slug));
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Updates the user's own profile (the WHERE names the owner, so nobody else's can change). */
export async function updateArtistProfile(
  db: Queryable,
  userId: string,
  input: ArtistProfileInput & { isAvailable: boolean },
) {
  const rows = await db
    .update(artistProfiles)
    .set({ ...profileValues(input), isAvailable: input.isAvailable, updatedAt: new Date() })
    .where(eq(artistProfiles.userId, userId))
    .returning({ id: artistProfiles.id });
  return rows[0]?.id ?? null;
}

export async function setArtistAvatar(db: Queryable, userId: string, avatarPath: string | null) {
  const [before] = await db
    .select({ avatarPath: artistProfiles.avatarPath })
    .from(artistProfiles)
    .where(eq(artistProfiles.userId, userId));
  await db
    .update(artistProfiles)
    .set({ avatarPath, updatedAt: new Date() })
    .where(eq(artistProfiles.userId, userId));
  return before?.avatarPath ?? null;
}
