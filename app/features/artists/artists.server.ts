import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { freeOnDateSql } from "~/features/availability/availability.server";
import type { SessionLevel } from "~/features/verification/verification-levels";
import { sessionLevels } from "~/features/verification/verification-levels.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import { type Queryable, queryRows } from "~db/client";
import { artistProfiles, musicSessions, portfolios, type SocialLinks, userRoles } from "~db/schema";
import { DISCOVERY_PAGE_SIZE, FREE_COUNT_LIMIT, GENRES, LOCATIONS } from "./artists.constants";
import { canEditArtistProfile } from "./artists.policy";
import type { ArtistProfileInput, DiscoveryQuery } from "./artists.schema";
import { storeAvatar } from "./avatar.server";
import { isSlug, slugify } from "./slug";
import { isTimeZone } from "./time-zones";

type Ctx = Pick<AppContext, "db">;

const PROFILE_NOT_FOUND = "Artist profile not found.";

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
  /** Gigs booked, completed and rated here (Client-verified sessions). */
  clientVerifiedSessions: number;
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
  clientVerifiedSessions: artistProfiles.clientVerifiedSessions,
  isAvailable: artistProfiles.isAvailable,
  avatarPath: artistProfiles.avatarPath,
};

/**
 * The landing page's featured artists: most verified sessions first, then the best rated. Public:
 * every viewer sees the same.
 */
export async function getFeaturedArtists(
  ctx: Ctx,
  _viewer: Actor,
  { limit = 2 }: { limit?: number } = {},
): Promise<ArtistSummary[]> {
  return ctx.db
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

/** No stored text holds a NUL character (PostgreSQL refuses them), so a query with one matches nothing. */
const hasNul = (text: string) => text.includes("\u0000");

/** The search box and filters as SQL conditions on artist_profiles (see searchArtists). */
function discoveryConditions(query: DiscoveryQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.q) {
    conditions.push(
      sql`lower(${artistProfiles.artistName} || ' ' || ${artistProfiles.genre} || ' ' || ${artistProfiles.instruments}) LIKE ${containsPattern(query.q)}`,
    );
  }
  if (query.genre)
    conditions.push(sql`lower(${artistProfiles.genre}) LIKE ${containsPattern(query.genre)}`);
  if (query.location) conditions.push(sql`${artistProfiles.location} = ${query.location}`);
  if (query.clientVerified > 0) {
    // The literal "> 0" lets the planner use artist_profiles_client_verified_idx, which holds
    // only artists with at least one Client-verified gig, whatever N is.
    conditions.push(sql`${artistProfiles.clientVerifiedSessions} > 0`);
    conditions.push(sql`${artistProfiles.clientVerifiedSessions} >= ${query.clientVerified}`);
  }
  if (query.date) {
    const within = query.location ? { location: query.location } : undefined;
    conditions.push(freeOnDateSql(sql`${artistProfiles.id}`, query.date, within));
  }
  return conditions;
}

/** A discovery card: the artist, and whether they marked the searched date available. */
export type DiscoveryArtist = ArtistSummary & { markedAvailable: boolean };

/**
 * Discovery: the search matches name, genre or instruments (case-insensitive, one trigram index
 * over the three); the genre filter contains; the location filter is exact. Best rated first.
 * With a date ("Available on"), only artists free that day (`freeOnDateSql`), those who marked it
 * available first. One row more than a page tells whether there is a next page. Public: every
 * viewer sees the same.
 */
export async function searchArtists(
  ctx: Ctx,
  _viewer: Actor,
  query: DiscoveryQuery,
): Promise<{ artists: DiscoveryArtist[]; hasMore: boolean }> {
  if ([query.q, query.genre, query.location].some(hasNul)) return { artists: [], hasMore: false };
  const { db } = ctx;
  const conditions = discoveryConditions(query);
  const offset = (query.page - 1) * DISCOVERY_PAGE_SIZE;
  if (!query.date) {
    const rows = await db
      .select(summaryColumns)
      .from(artistProfiles)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(descNullsLast(artistProfiles.rating), artistProfiles.id)
      .limit(DISCOVERY_PAGE_SIZE + 1)
      .offset(offset);
    return {
      artists: rows.slice(0, DISCOVERY_PAGE_SIZE).map((a) => ({ ...a, markedAvailable: false })),
      hasMore: rows.length > DISCOVERY_PAGE_SIZE,
    };
  }
  // Two ordered branches, each cut at the end of the asked page: the free artists who marked the
  // date available, read from that day's marks best rated first (each mark carries its artist's
  // location and rating, so one index gives them in order, within the location when there is
  // one), then the other free artists best rated first, walking the same indexes as without a date.
  const upTo = offset + DISCOVERY_PAGE_SIZE + 1;
  const where = sql.join(conditions, sql` AND `);
  const markedIn = query.location ? sql` AND av.artist_location = ${query.location}` : sql``;
  const columns = sql`artist_profiles.id, artist_profiles.slug, artist_profiles.artist_name,
    artist_profiles.genre, artist_profiles.location, artist_profiles.bio,
    artist_profiles.instruments, artist_profiles.rating, artist_profiles.total_reviews,
    artist_profiles.verified_sessions, artist_profiles.client_verified_sessions,
    artist_profiles.is_available, artist_profiles.avatar_path`;
  const rows = await queryRows<{
    id: string;
    slug: string;
    artist_name: string;
    genre: string;
    location: string;
    bio: string;
    instruments: string;
    rating: string | number;
    total_reviews: number;
    verified_sessions: number;
    client_verified_sessions: number;
    is_available: boolean;
    avatar_path: string | null;
    marked_available: boolean;
  }>(
    db,
    sql`SELECT * FROM (
        (SELECT ${columns}, true AS marked_available
          FROM availability av JOIN artist_profiles ON artist_profiles.id = av.artist_profile_id
          WHERE av.date = ${query.date}::date AND av.status = 'available'${markedIn} AND ${where}
          ORDER BY av.artist_rating DESC NULLS LAST, av.artist_profile_id
          LIMIT ${upTo})
        UNION ALL
        (SELECT ${columns}, false AS marked_available
          FROM artist_profiles
          WHERE ${where} AND NOT EXISTS (SELECT 1 FROM availability m
            WHERE m.artist_profile_id = artist_profiles.id AND m.date = ${query.date}::date
              AND m.status = 'available')
          ORDER BY artist_profiles.rating DESC NULLS LAST, artist_profiles.id
          LIMIT ${upTo})
      ) free
      ORDER BY marked_available DESC, rating DESC NULLS LAST, id
      LIMIT ${DISCOVERY_PAGE_SIZE + 1} OFFSET ${offset}`,
  );
  return {
    artists: rows.slice(0, DISCOVERY_PAGE_SIZE).map((r) => ({
      id: r.id,
      slug: r.slug,
      artistName: r.artist_name,
      genre: r.genre,
      location: r.location,
      bio: r.bio,
      instruments: r.instruments,
      rating: Number(r.rating),
      totalReviews: r.total_reviews,
      verifiedSessions: r.verified_sessions,
      clientVerifiedSessions: r.client_verified_sessions,
      isAvailable: r.is_available,
      avatarPath: r.avatar_path,
      markedAvailable: r.marked_available,
    })),
    hasMore: rows.length > DISCOVERY_PAGE_SIZE,
  };
}

/**
 * How many artists the search finds free on its date (at most FREE_COUNT_LIMIT + 1, which means
 * "more than the limit"). Null without a date. Public.
 */
export async function countFreeArtists(
  ctx: Ctx,
  _viewer: Actor,
  query: DiscoveryQuery,
): Promise<number | null> {
  if (!query.date) return null;
  if ([query.q, query.genre, query.location].some(hasNul)) return 0;
  const limited = ctx.db
    .select({ one: sql`1`.as("one") })
    .from(artistProfiles)
    .where(and(...discoveryConditions(query)))
    .limit(FREE_COUNT_LIMIT + 1)
    .as("limited");
  const [row] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(limited);
  return row?.n ?? 0;
}

// ─── Filter values (facets) ─────────────────────────────────────────────────────────────────────

/** A filter value artists have, and how many artists the filter finds with it. */
export type Facet = { value: string; count: number };
export type DiscoveryFacets = { genres: Facet[]; locations: Facet[] };

/** The most used values offered per filter (free text can hold many rare ones). */
export const FACET_LIMIT = 100;
/** Genre values read to merge spellings and sum "contains" counts before keeping FACET_LIMIT. */
const GENRE_VALUES_READ = 1000;
/** How long an instance reuses the counts; its own profile writes refresh them at once. */
export const FACET_TTL_MS = 60_000;

/**
 * The two counts behind the filters, over every artist (not the page's matches, so the lists stay
 * put while the visitor types). Locations walk artist_profiles_location_idx: each distinct value
 * is found with one index probe past the last (a "skip scan"), then counted from the index alone,
 * so the table itself is never read; genres walk artist_profiles_genre_value_idx the same way.
 * getDiscoveryFacets keeps both counts out of the request path. Exported for the plan test and
 * the bench.
 */
export function facetQueries(): { genres: SQL; locations: SQL } {
  return {
    genres: distinctValuesWithCounts(sql.raw("genre"), GENRE_VALUES_READ),
    locations: distinctValuesWithCounts(sql.raw("location"), FACET_LIMIT),
  };
}

/** Each distinct value of an indexed column by index skips, with a count per value, most first. */
function distinctValuesWithCounts(column: SQL, limit: number): SQL {
  return sql`
    WITH RECURSIVE distinct_values(value) AS (
      SELECT min(${column}) FROM artist_profiles
      UNION ALL
      SELECT (SELECT min(${column}) FROM artist_profiles WHERE ${column} > d.value)
      FROM distinct_values d WHERE d.value IS NOT NULL
    )
    SELECT value,
      (SELECT count(*) FROM artist_profiles a WHERE a.${column} = d.value)::int AS count
    FROM distinct_values d
    WHERE value IS NOT NULL
    ORDER BY count DESC, value
    LIMIT ${limit}`;
}

const byName = (a: Facet, b: Facet) =>
  a.value.localeCompare(b.value, "en", { sensitivity: "base" }) ||
  (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/**
 * The genre filter matches "contains, any case" (see searchArtists), so a value's count is the
 * number of artists whose genre contains it: "Jazz" counts "Smooth Jazz" too, exactly what
 * choosing it finds. Spellings that differ only in case are one value (the most used spelling).
 */
export function genreFacets(rows: Facet[], limit = FACET_LIMIT): Facet[] {
  const merged = new Map<string, { value: string; top: number; count: number }>();
  for (const row of rows) {
    const key = row.value.toLowerCase();
    const entry = merged.get(key);
    if (!entry) merged.set(key, { value: row.value, top: row.count, count: row.count });
    else {
      entry.count += row.count;
      if (row.count > entry.top) Object.assign(entry, { value: row.value, top: row.count });
    }
  }
  const values = [...merged.entries()];
  return values
    .map(([key, { value, count }]) => ({
      value,
      own: count,
      count: values.reduce((sum, [other, o]) => (other.includes(key) ? sum + o.count : sum), 0),
    }))
    .sort((a, b) => b.own - a.own || byName(a, b))
    .slice(0, limit)
    .map(({ value, count }) => ({ value, count }))
    .sort(byName);
}

/** The filters' values and counts, read now (the bench measures this). */
export async function countDiscoveryFacets(ctx: Ctx): Promise<DiscoveryFacets> {
  const queries = facetQueries();
  const [genres, locations] = await Promise.all([
    queryRows<Facet>(ctx.db, queries.genres),
    queryRows<Facet>(ctx.db, queries.locations),
  ]);
  return { genres: genreFacets(genres), locations: [...locations].sort(byName) };
}

/**
 * What profile setup suggests for genre and location: the values artists use (most used first),
 * then the usual ones nobody has used yet. Public.
 */
export async function getProfileSuggestions(
  ctx: Ctx,
  viewer: Actor,
): Promise<{ genres: string[]; locations: string[] }> {
  const facets = await getDiscoveryFacets(ctx, viewer);
  const mostUsed = (list: Facet[], usual: readonly string[]) => {
    const values = [...list].sort((a, b) => b.count - a.count).map((f) => f.value);
    const seen = new Set(values.map((v) => v.toLowerCase()));
    return [...values, ...usual.filter((v) => !seen.has(v.toLowerCase()))];
  };
  return {
    genres: mostUsed(facets.genres, GENRES),
    locations: mostUsed(facets.locations, LOCATIONS),
  };
}

type FacetEntry = { at: number; facets: Promise<DiscoveryFacets>; refreshing?: boolean };
const facetCache = new WeakMap<object, FacetEntry>();

/** A profile was created or changed here: the next discovery page counts again. */
function forgetFacets(ctx: Ctx) {
  facetCache.delete(ctx.db);
}

function countInto(ctx: Ctx, now: number): FacetEntry {
  const entry: FacetEntry = { at: now, facets: countDiscoveryFacets(ctx) };
  facetCache.set(ctx.db, entry);
  entry.facets.catch(() => {
    if (facetCache.get(ctx.db) === entry) facetCache.delete(ctx.db);
  });
  return entry;
}

/**
 * The values artists actually have in the genre and location filters, with counts: the most used
 * FACET_LIMIT of each, shown alphabetically. Counting is a GROUP BY over every artist (about half
 * a second at a million), so an instance counts once, then serves its last counts and recounts in
 * the background once they are FACET_TTL_MS old; its own profile writes make the next call count
 * afresh. A discovery page therefore costs only its search. Public.
 */
export async function getDiscoveryFacets(
  ctx: Ctx,
  _viewer: Actor,
  { now = Date.now() }: { now?: number } = {},
): Promise<DiscoveryFacets> {
  const cached = facetCache.get(ctx.db);
  if (!cached) return countInto(ctx, now).facets;
  if (now - cached.at >= FACET_TTL_MS && !cached.refreshing) {
    cached.refreshing = true;
    const next = countDiscoveryFacets(ctx);
    next.then(
      () => {
        if (facetCache.get(ctx.db) === cached) facetCache.set(ctx.db, { at: now, facets: next });
      },
      () => {
        cached.refreshing = false;
      },
    );
  }
  return cached.facets;
}

export type ArtistProfile = ArtistSummary & {
  userId: string;
  experience: string;
  hourlyRate: number | null;
  socialLinks: SocialLinks;
  totalSessions: number;
  totalMinutes: number;
  /** IANA zone: the artist's session and booking times are wall-clock times here. */
  timeZone: string;
};

const profileColumns = {
  ...summaryColumns,
  userId: artistProfiles.userId,
  experience: artistProfiles.experience,
  hourlyRate: artistProfiles.hourlyRate,
  socialLinks: artistProfiles.socialLinks,
  totalSessions: artistProfiles.totalSessions,
  totalMinutes: artistProfiles.totalMinutes,
  timeZone: artistProfiles.timeZone,
};

/**
 * A profile by its UUID or its slug; null when there is none (anything that is neither a UUID
 * nor a slug is simply not found, never a query). Profiles are public.
 */
export async function getArtistProfile(
  ctx: Ctx,
  _viewer: Actor,
  idOrSlug: string,
): Promise<ArtistProfile | null> {
  const slug = idOrSlug.toLowerCase();
  const where = isUuid(idOrSlug)
    ? eq(artistProfiles.id, idOrSlug)
    : isSlug(slug)
      ? eq(artistProfiles.slug, slug)
      : null;
  if (!where) return null;
  const [row] = await ctx.db.select(profileColumns).from(artistProfiles).where(where);
  return row ? { ...row, socialLinks: parseSocialLinks(row.socialLinks) } : null;
}

/** The actor's own artist profile; null for a visitor or someone without one. */
export async function getOwnArtistProfile(ctx: Ctx, actor: Actor): Promise<ArtistProfile | null> {
  if (!actor) return null;
  return ownProfile(ctx.db, actor.id);
}

async function ownProfile(db: Queryable, userId: string): Promise<ArtistProfile | null> {
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
  /** Its rung on the verification ladder, who verified it and when. */
  level: SessionLevel;
};

/** An artist's performances already played, newest first, with their levels. Public. */
export async function getRecentPerformances(
  ctx: Ctx,
  _viewer: Actor,
  { artistId, limit = 5 }: { artistId: string; limit?: number },
): Promise<RecentPerformance[]> {
  const rows = await ctx.db
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
  const levels = await sessionLevels(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    ...r,
    level: levels.get(r.id) ?? { level: "self_logged", verifiers: [], reachedAt: null },
  }));
}

/** The id of the artist's active portfolio when it is public; null otherwise. */
export async function getPublicPortfolioId(
  ctx: Ctx,
  _viewer: Actor,
  artistId: string,
): Promise<string | null> {
  const [row] = await ctx.db
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

const BAD_TIME_ZONE = "Please choose a time zone from the list";

function profileValues(input: ArtistProfileInput) {
  // The form's schema checks it too; a caller that skips the form must not store a zone no
  // runtime can read.
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone))
    refuse("invalid", BAD_TIME_ZONE, { fieldErrors: { timeZone: BAD_TIME_ZONE } });
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
    // Left out, a new profile takes the column's default and an edit keeps the stored zone.
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
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
 * Creates the actor's artist profile in one transaction: the 'artist' role (kept if present), the
 * profile with a unique slug, and a private auto-generated portfolio (every profile has one).
 * One profile per account: when the actor already has one, answers with its id instead.
 * The caller forgets its memo of the current user afterwards (their roles and profile changed).
 */
export async function createArtistProfile(
  ctx: Ctx,
  actor: Actor,
  input: ArtistProfileInput,
): Promise<{ id: string; created: boolean }> {
  if (!actor) refuse("forbidden", "You must be logged in to create an artist profile.");
  const { db } = ctx;
  const userId = actor.id;
  const existing = await ownProfile(db, userId);
  if (existing) return { id: existing.id, created: false };
  const values = profileValues(input);
  const base = slugify(input.artistName);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const id = await db.transaction(async (tx) => {
        await tx.insert(userRoles).values({ userId, role: "artist" }).onConflictDoNothing();
        const slug = await freeSlug(tx, base);
        const [profile] = await tx
          .insert(artistProfiles)
          .values({ userId, slug, ...values })
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
      forgetFacets(ctx);
      return { id, created: true };
    } catch (error) {
      // Two sign-ups racing for one slug: try the next free one. A second profile for the same
      // user loses to the unique user_id and returns the first.
      if (isUniqueViolation(error, "artist_profiles_user_id_unique")) {
        const profile = await ownProfile(db, userId);
        if (profile) return { id: profile.id, created: false };
      }
      if (!isUniqueViolation(error, "artist_profiles_slug_unique")) throw error;
    }
  }
  refuse("conflict", "Could not find a free address for this artist name. Please try again.", {
    reason: "slug_taken",
  });
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

/** The actor's own profile, for a write: anyone else's (or none) is "not found". */
async function requireOwnProfile(db: Queryable, actor: Actor) {
  if (!actor) refuse("not_found", PROFILE_NOT_FOUND);
  const [artist] = await db
    .select({
      id: artistProfiles.id,
      userId: artistProfiles.userId,
      avatarPath: artistProfiles.avatarPath,
    })
    .from(artistProfiles)
    .where(eq(artistProfiles.userId, actor.id));
  if (!artist || !canEditArtistProfile(actor, artist)) refuse("not_found", PROFILE_NOT_FOUND);
  return artist;
}

/** Saves the actor's own profile; returns its id. */
export async function updateArtistProfile(
  ctx: Ctx,
  actor: Actor,
  input: ArtistProfileInput & { isAvailable: boolean },
): Promise<string> {
  const artist = await requireOwnProfile(ctx.db, actor);
  await ctx.db
    .update(artistProfiles)
    .set({ ...profileValues(input), isAvailable: input.isAvailable, updatedAt: new Date() })
    .where(eq(artistProfiles.id, artist.id));
  forgetFacets(ctx);
  return artist.id;
}

/**
 * Replaces the actor's profile picture: the image is checked and re-encoded (see avatar.server),
 * stored, and the previous one deleted. Returns the new file's key.
 */
export async function setArtistAvatar(
  ctx: Pick<AppContext, "db" | "storage">,
  actor: Actor,
  file: File,
): Promise<string> {
  const artist = await requireOwnProfile(ctx.db, actor);
  const key = await storeAvatar(ctx.storage, artist.id, file);
  await ctx.db
    .update(artistProfiles)
    .set({ avatarPath: key, updatedAt: new Date() })
    .where(eq(artistProfiles.id, artist.id));
  // A file left behind costs only space; the new picture is already saved.
  if (artist.avatarPath) await ctx.storage.delete(artist.avatarPath).catch(() => {});
  return key;
}
