import { and, desc, eq, lt, sql } from "drizzle-orm";
import {
  BALANCE_DUE_DAYS_CHOICES,
  DEPOSIT_BPS_CHOICES,
  isPolicyCode,
  type POLICY_CODES,
} from "~/features/terms/policies";
import type { SessionLevel } from "~/features/verification/verification-levels";
import { sessionLevels } from "~/features/verification/verification-levels.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import type { Queryable } from "~db/client";
import type { EVENT_TYPES } from "~db/enums";
import { artistProfiles, musicSessions, portfolios, type SocialLinks, userRoles } from "~db/schema";
import { type ArtistSummary, summaryColumns } from "./artist-summary.server";
import { canEditArtistProfile } from "./artists.policy";
import {
  type ArtistProfileInput,
  BALANCE_DUE_CHOICE_MESSAGE,
  DEPOSIT_CHOICE_MESSAGE,
  POLICY_CHOICE_MESSAGE,
} from "./artists.schema";
import { storeAvatar } from "./avatar.server";
import { forgetFacets } from "./discovery-facets.server";
import { isSlug, slugify } from "./slug";
import { isTimeZone } from "./time-zones";

type Ctx = Pick<AppContext, "db">;

const PROFILE_NOT_FOUND = "Artist profile not found.";

type ArtistProfile = ArtistSummary & {
  userId: string;
  experience: string;
  hourlyRate: number | null;
  startingPrice: number | null;
  socialLinks: SocialLinks;
  totalSessions: number;
  totalMinutes: number;
  /** IANA zone: the artist's session and booking times are wall-clock times here. */
  timeZone: string;
  /** The published booking terms: the deposit (basis points, 0 = none)... */
  depositBps: number;
  /** ...the days before the event the balance is due (0 = on the day)... */
  balanceDueDays: number;
  /** ...and the cancellation policy. */
  cancellationPolicy: (typeof POLICY_CODES)[number];
  /** The kinds of event the artist plays (the booking form's event types). */
  occasions: (typeof EVENT_TYPES)[number][];
};

const profileColumns = {
  ...summaryColumns,
  userId: artistProfiles.userId,
  experience: artistProfiles.experience,
  hourlyRate: artistProfiles.hourlyRate,
  startingPrice: artistProfiles.startingPrice,
  socialLinks: artistProfiles.socialLinks,
  totalSessions: artistProfiles.totalSessions,
  totalMinutes: artistProfiles.totalMinutes,
  timeZone: artistProfiles.timeZone,
  depositBps: artistProfiles.depositBps,
  balanceDueDays: artistProfiles.balanceDueDays,
  cancellationPolicy: artistProfiles.cancellationPolicy,
  occasions: artistProfiles.occasions,
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
  return rows.map((r) => {
    const level = levels.get(r.id) ?? { level: "self_logged", verifiers: [], reachedAt: null };
    return { ...r, level, isVerified: level.level !== "self_logged" };
  });
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
  checkTerms(input);
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
    startingPrice: input.startingPrice ?? null,
    socialLinks,
    // Left out, a new profile takes the column's default and an edit keeps the stored zone;
    // the same for each booking term.
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    ...(input.occasions !== undefined ? { occasions: input.occasions } : {}),
    ...(input.depositBps !== undefined ? { depositBps: input.depositBps } : {}),
    ...(input.balanceDueDays !== undefined ? { balanceDueDays: input.balanceDueDays } : {}),
    ...(input.cancellationPolicy !== undefined
      ? { cancellationPolicy: input.cancellationPolicy }
      : {}),
  };
}

/** The form's schema checks the terms too; a caller that skips the form gets the same words. */
function checkTerms(input: ArtistProfileInput) {
  const refused = (field: string, message: string) =>
    refuse("invalid", message, { fieldErrors: { [field]: message } });
  if (input.depositBps !== undefined && !DEPOSIT_BPS_CHOICES.includes(input.depositBps))
    refused("depositBps", DEPOSIT_CHOICE_MESSAGE);
  if (
    input.balanceDueDays !== undefined &&
    !BALANCE_DUE_DAYS_CHOICES.includes(input.balanceDueDays)
  )
    refused("balanceDueDays", BALANCE_DUE_CHOICE_MESSAGE);
  if (input.cancellationPolicy !== undefined && !isPolicyCode(input.cancellationPolicy))
    refused("cancellationPolicy", POLICY_CHOICE_MESSAGE);
  // A starting price is for artists who quote each booking (decision 064).
  if (input.hourlyRate !== null && (input.startingPrice ?? null) !== null)
    refused("startingPrice", BOTH_PRICES_MESSAGE);
}

export const BOTH_PRICES_MESSAGE =
  "Give an hourly rate or a starting price, not both: clear one of them.";

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
