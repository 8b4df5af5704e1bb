/**
 * The whole GigLedger data model (docs/product.md describes each thing and its rules).
 * Column names are snake_case in SQL and camelCase here (Drizzle `casing: "snake_case"`).
 * Every enumerated value has a CHECK constraint, so the database refuses what the rules forbid.
 */
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

import {
  AGREEMENT_PARTIES,
  AGREEMENT_STATUSES,
  ANALYTICS_EVENT_TYPES,
  AVAILABILITY_STATUSES,
  BOOKING_CANCELLERS,
  BOOKING_STATUSES,
  EVENT_TYPES,
  LEDGER_ACCOUNT_KINDS,
  LEDGER_TXN_KINDS,
  LINEUP_ANSWERS,
  MEDIA_TYPES,
  MONEY_EVENT_KINDS,
  OFFER_KINDS,
  OFFER_STATUSES,
  PAID_THROUGH,
  PARTICIPANT_STATUSES,
  PARTICIPATION_TYPES,
  PAYMENT_INTENT_STATUSES,
  PAYMENT_PURPOSES,
  PAYOUT_METHODS,
  POLICY_CODES,
  PROBLEM_CATEGORIES,
  PROBLEM_DECISIONS,
  PROVIDER_COMMAND_KINDS,
  PROVIDER_COMMAND_STATUSES,
  PROVIDER_EVENT_OUTCOMES,
  PROVIDERS,
  ROLES,
  SESSION_TYPES,
  TRUST_SCORES,
  VERIFICATION_METHODS,
} from "./enums";

export {
  ANALYTICS_EVENT_TYPES,
  AVAILABILITY_STATUSES,
  BOOKING_CANCELLERS,
  BOOKING_STATUSES,
  EVENT_TYPES,
  LINEUP_ANSWERS,
  MEDIA_TYPES,
  PARTICIPANT_STATUSES,
  PARTICIPATION_TYPES,
  ROLES,
  SESSION_TYPES,
  TRUST_SCORES,
  VERIFICATION_METHODS,
};

/** A PostgreSQL full-text document; written by triggers only (see artist_profiles.search_document). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * A 64-bit signature (a bigint of bit flags); written by triggers only and read by SQL only, so it
 * reaches JavaScript, if ever selected, as text (a number would lose bits).
 */
const signature = customType<{ data: string }>({
  dataType: () => "bigint",
  fromDriver: (value) => String(value),
});

/** `column IN ('a', 'b')` for a CHECK constraint; the values are our own constants, never input. */
function oneOf(column: string, values: readonly (string | number)[]) {
  const list = values.map((v) => (typeof v === "number" ? String(v) : `'${v}'`)).join(", ");
  return sql.raw(`${column} IN (${list})`);
}

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};

// ─── Accounts (better-auth core tables, with our names) ────────────────────────────────────────

export const users = pgTable("users", {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  email: text().notNull().unique(),
  emailVerified: boolean().notNull().default(false),
  image: text(),
  ...timestamps,
});

export const authSessions = pgTable(
  "auth_sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    token: text().notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ipAddress: text(),
    userAgent: text(),
    ...timestamps,
  },
  (t) => [index().on(t.userId)],
);

export const authAccounts = pgTable(
  "auth_accounts",
  {
    id: uuid().primaryKey().defaultRandom(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    ...timestamps,
  },
  (t) => [index().on(t.userId)],
);

export const authVerifications = pgTable(
  "auth_verifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index().on(t.identifier)],
);

/** Request counters for rate limiting, in the database so restarts and other instances share them. */
export const rateLimits = pgTable("rate_limits", {
  id: uuid().primaryKey().defaultRandom(),
  key: text().notNull().unique(),
  count: integer().notNull(),
  lastRequest: bigint({ mode: "number" }).notNull(),
});

export const profiles = pgTable("profiles", {
  id: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  firstName: text(),
  lastName: text(),
  email: text().notNull(),
  ...timestamps,
});

export const userRoles = pgTable(
  "user_roles",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text({ enum: ROLES }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex().on(t.userId, t.role), check("user_roles_role_check", oneOf("role", ROLES))],
);

// ─── Artists ───────────────────────────────────────────────────────────────────────────────────

export type SocialLinks = { instagram?: string; youtube?: string; facebook?: string };

export const artistProfiles = pgTable(
  "artist_profiles",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    slug: text().notNull().unique(),
    artistName: text().notNull(),
    bio: text().notNull(),
    genre: text().notNull(),
    location: text().notNull(),
    experience: text().notNull(),
    instruments: text().notNull(),
    hourlyRate: numeric({ precision: 10, scale: 2, mode: "number" }),
    // What a booking costs at least, for an artist who quotes each booking instead of an hourly
    // rate: the card's "From ₹…" (decision 064).
    startingPrice: numeric({ precision: 10, scale: 2, mode: "number" }),
    socialLinks: jsonb().$type<SocialLinks>().notNull().default({}),
    avatarPath: text(),
    isAvailable: boolean().notNull().default(true),
    // IANA zone: session and booking times are wall-clock times here (docs/product.md, Times).
    timeZone: text().notNull().default("Asia/Kolkata"),
    rating: numeric({ precision: 3, scale: 2, mode: "number" }).notNull().default(0),
    totalReviews: integer().notNull().default(0),
    // Kept by triggers on music_sessions (see migration 0001), never written by application code.
    totalSessions: integer().notNull().default(0),
    verifiedSessions: integer().notNull().default(0),
    // Sessions logged from a rated booking (Client-verified gigs); kept by the same trigger.
    clientVerifiedSessions: integer().notNull().default(0),
    totalMinutes: bigint({ mode: "number" }).notNull().default(0),
    // The artist's published booking terms (docs/decisions/047): a request is an offer on these.
    depositBps: integer().notNull().default(3000),
    balanceDueDays: integer().notNull().default(7),
    cancellationPolicy: text({ enum: POLICY_CODES }).notNull().default("moderate"),
    // Chosen in the portfolio manager, shown on the discovery card and atop the profile: a photo
    // and an audio clip of the artist's own sessions (a trigger checks both; migration 0027).
    coverMediaId: uuid().references((): AnyPgColumn => sessionMedia.id, { onDelete: "set null" }),
    featuredClipId: uuid().references((): AnyPgColumn => sessionMedia.id, {
      onDelete: "set null",
    }),
    // The kinds of event the artist plays (the booking form's event types), for discovery.
    occasions: text({ enum: EVENT_TYPES }).array().notNull().default(sql`'{}'::text[]`),
    // Discovery's text search: name, genre and instruments (A), occasions (B), bio and session
    // titles (C), reviews (D). Kept by triggers (migration 0026), never written by application code.
    searchDocument: tsvector().notNull().default(sql`''::tsvector`),
    // The search's signatures (decision 065): a bit per word of the document, and per trigram of
    // name, genre and instruments, so the words' walk in rating order tests the index alone and
    // reads only the artists that may match. Kept by triggers (migration 0030).
    searchBits: signature().notNull().default(sql`0`),
    nameBits: signature().notNull().default(sql`0`),
    ...timestamps,
  },
  (t) => [
    check(
      "artist_profiles_deposit_check",
      sql`${t.depositBps} = 0 OR (${t.depositBps} BETWEEN 1000 AND 10000 AND ${t.depositBps} % 500 = 0)`,
    ),
    check("artist_profiles_balance_due_check", sql`${t.balanceDueDays} IN (0, 3, 7, 14, 28)`),
    check("artist_profiles_policy_check", oneOf("cancellation_policy", POLICY_CODES)),
    check("artist_profiles_rating_check", sql`${t.rating} >= 0 AND ${t.rating} <= 5`),
    check("artist_profiles_total_reviews_check", sql`${t.totalReviews} >= 0`),
    check(
      "artist_profiles_hourly_rate_check",
      sql`${t.hourlyRate} IS NULL OR ${t.hourlyRate} >= 0`,
    ),
    check(
      "artist_profiles_starting_price_check",
      sql`${t.startingPrice} IS NULL OR (${t.startingPrice} > 0 AND ${t.hourlyRate} IS NULL)`,
    ),
    check(
      "artist_profiles_counts_check",
      sql`${t.totalSessions} >= 0 AND ${t.verifiedSessions} >= 0 AND ${t.totalMinutes} >= 0`,
    ),
    check("artist_profiles_client_verified_check", sql`${t.clientVerifiedSessions} >= 0`),
    check("artist_profiles_slug_check", sql`${t.slug} ~ '^[a-z0-9-]+$'`),
    check(
      "artist_profiles_occasions_check",
      sql.raw(`occasions <@ ARRAY[${EVENT_TYPES.map((v) => `'${v}'`).join(", ")}]::text[]`),
    ),
    // Discovery: one trigram index over everything the search box matches.
    index("artist_profiles_search_idx").using(
      "gin",
      sql`lower(${t.artistName} || ' ' || ${t.genre} || ' ' || ${t.instruments}) gin_trgm_ops`,
    ),
    index("artist_profiles_genre_idx").using("gin", sql`lower(${t.genre}) gin_trgm_ops`),
    // Discovery's genre filter values and counts walk this one (see facetQueries).
    index("artist_profiles_genre_value_idx").on(t.genre),
    index("artist_profiles_location_idx").on(t.location, t.rating.desc(), t.id),
    // "Available on" counts: a location's artists in id order (so a count that stops early meets
    // every genre evenly), with the genre, read from the index alone (decision 015).
    index("artist_profiles_location_genre_idx").on(t.location, t.id, t.genre),
    index("artist_profiles_ranking_idx").on(t.verifiedSessions.desc(), t.rating.desc(), t.id),
    index("artist_profiles_listing_idx").on(t.rating.desc(), t.id),
    // The words' walk (decision 065): the same orders as the two above, with the signatures after
    // them, read from the index alone. Kept apart so the other searches walk the narrower ones.
    index("artist_profiles_words_idx").on(t.rating.desc(), t.id, t.searchBits, t.nameBits),
    index("artist_profiles_location_words_idx").on(
      t.location,
      t.rating.desc(),
      t.id,
      t.searchBits,
      t.nameBits,
    ),
    // Discovery's text search (decision 059).
    index("artist_profiles_document_idx").using("gin", t.searchDocument),
    // The occasion filter's counts walk this one by index skips, as genres and locations do.
    index("artist_profiles_occasions_idx").on(t.occasions),
    // "Price: low to high" and the budget filter; the signatures after them for the words' walk
    // in price order (decision 069).
    index("artist_profiles_price_idx").on(
      t.hourlyRate.asc().nullsLast(),
      t.id,
      t.searchBits,
      t.nameBits,
    ),
    // A budget within a location (decision 082): "up to ₹…" in a city reads only that city's
    // artists within it, where the two indexes above had to be read whole and joined.
    index("artist_profiles_location_rate_idx").on(t.location, t.hourlyRate),
    // A budget in rating order (decision 085): the listing's order with the rate after it, so a
    // budget few meet is tested in the index and reads only the rows within it, page after page.
    // Kept apart from artist_profiles_listing_idx, which the walks read.
    index("artist_profiles_rate_by_rating_idx").on(t.rating.desc(), t.id, t.hourlyRate),
    // Discovery's "at least N client-verified gigs": only artists with one or more are indexed.
    index("artist_profiles_client_verified_idx")
      .on(t.rating.desc(), t.id)
      .where(sql`${t.clientVerifiedSessions} > 0`),
  ],
);

/**
 * How common each term of the words search is (decision 070): the share of a sample of artists
 * whose search document holds a word (kind 'word', a stem) or whose name, genre and instruments
 * hold a trigram (kind 'part'). Written again every hour by refresh_search_term_shares(); read by
 * search_words_rare(), which sends words too rare for the words' walk straight to every match.
 */
export const searchTermShares = pgTable(
  "search_term_shares",
  {
    kind: text().notNull(),
    term: text().notNull(),
    share: doublePrecision().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.term] }),
    check("search_term_shares_kind_check", sql`${t.kind} IN ('word', 'part')`),
    check("search_term_shares_share_check", sql`${t.share} > 0 AND ${t.share} <= 1`),
  ],
);

// ─── Musical sessions, media, sharing, verification ───────────────────────────────────────────

export type Collaborator = { name: string; role: string };

export const musicSessions = pgTable(
  "music_sessions",
  {
    id: uuid().primaryKey().defaultRandom(),
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    title: text().notNull(),
    sessionType: text({ enum: SESSION_TYPES }).notNull(),
    startTime: timestamp({ withTimezone: true }).notNull().defaultNow(),
    durationMinutes: integer().notNull().default(0),
    venue: text(),
    location: text(),
    description: text(),
    instrumentsUsed: text().array().notNull().default(sql`'{}'::text[]`),
    genres: text().array().notNull().default(sql`'{}'::text[]`),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    isVerified: boolean().notNull().default(false),
    peerVerificationScore: numeric({ precision: 5, scale: 2, mode: "number" }),
    verificationMethod: text({ enum: VERIFICATION_METHODS }),
    collaborators: jsonb().$type<Collaborator[]>().notNull().default([]),
    // Set when the session was logged from a rated booking; one session per booking.
    bookingId: uuid()
      .unique()
      .references((): AnyPgColumn => bookings.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    check("music_sessions_type_check", oneOf("session_type", SESSION_TYPES)),
    check(
      "music_sessions_verification_method_check",
      sql`${t.verificationMethod} IS NULL OR ${oneOf("verification_method", VERIFICATION_METHODS)}`,
    ),
    check(
      "music_sessions_duration_check",
      sql`${t.durationMinutes} >= 0 AND ${t.durationMinutes} <= 100000`,
    ),
    check(
      "music_sessions_score_check",
      sql`${t.peerVerificationScore} IS NULL OR (${t.peerVerificationScore} >= 0 AND ${t.peerVerificationScore} <= 100)`,
    ),
    index().on(t.artistProfileId, t.startTime.desc()),
  ],
);

export const sessionMedia = pgTable(
  "session_media",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid()
      .notNull()
      .references(() => musicSessions.id, { onDelete: "cascade" }),
    mediaType: text({ enum: MEDIA_TYPES }).notNull(),
    filePath: text().notNull(),
    previewPath: text(),
    fileName: text().notNull(),
    fileSize: bigint({ mode: "number" }).notNull(),
    mimeType: text().notNull(),
    // SHA-256 (hex) of the stored file, computed while it streamed in; null for files uploaded
    // before hashes were kept (decision 017).
    sha256: text(),
    description: text(),
    isFeatured: boolean().notNull().default(false),
    isPortfolioFeatured: boolean().notNull().default(false),
    portfolioCategory: text({ enum: MEDIA_TYPES }),
    portfolioSortOrder: bigint({ mode: "number" }).notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("session_media_type_check", oneOf("media_type", MEDIA_TYPES)),
    check(
      "session_media_category_check",
      sql`${t.portfolioCategory} IS NULL OR ${oneOf("portfolio_category", MEDIA_TYPES)}`,
    ),
    check("session_media_size_check", sql`${t.fileSize} >= 0`),
    check("session_media_sha256_check", sql`${t.sha256} IS NULL OR ${t.sha256} ~ '^[0-9a-f]{64}$'`),
    index().on(t.sessionId, t.createdAt.desc()),
    index("session_media_featured_idx")
      .on(t.sessionId, t.portfolioSortOrder)
      .where(sql`${t.isPortfolioFeatured}`),
  ],
);

export const sessionSharingTokens = pgTable(
  "session_sharing_tokens",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid()
      .notNull()
      .references(() => musicSessions.id, { onDelete: "cascade" }),
    creatorArtistId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    // SHA-256 of the token; the token itself is never stored.
    tokenHash: text().notNull().unique(),
    maxUses: integer(),
    useCount: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("session_sharing_tokens_max_uses_check", sql`${t.maxUses} IS NULL OR ${t.maxUses} >= 1`),
    check(
      "session_sharing_tokens_use_count_check",
      sql`${t.useCount} >= 0 AND (${t.maxUses} IS NULL OR ${t.useCount} <= ${t.maxUses})`,
    ),
    index().on(t.sessionId),
  ],
);

export const sessionParticipants = pgTable(
  "session_participants",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid()
      .notNull()
      .references(() => musicSessions.id, { onDelete: "cascade" }),
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    joinedViaToken: uuid().references(() => sessionSharingTokens.id, { onDelete: "set null" }),
    participationType: text({ enum: PARTICIPATION_TYPES }).notNull(),
    verificationStatus: text({ enum: PARTICIPANT_STATUSES }).notNull(),
    notes: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex().on(t.sessionId, t.artistProfileId, t.participationType),
    index().on(t.artistProfileId, t.participationType),
    check("session_participants_type_check", oneOf("participation_type", PARTICIPATION_TYPES)),
    check("session_participants_status_check", oneOf("verification_status", PARTICIPANT_STATUSES)),
  ],
);

export const peerVerifications = pgTable(
  "peer_verifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid()
      .notNull()
      .references(() => musicSessions.id, { onDelete: "cascade" }),
    verifiedByArtistId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    verificationType: text().notNull().default("collaboration"),
    verificationLevel: text().notNull().default("basic"),
    trustScore: integer().notNull().default(100),
    notes: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex().on(t.sessionId, t.verifiedByArtistId),
    check("peer_verifications_trust_score_check", oneOf("trust_score", TRUST_SCORES)),
    check("peer_verifications_type_check", oneOf("verification_type", ["collaboration"])),
    check("peer_verifications_level_check", oneOf("verification_level", ["basic"])),
  ],
);

/**
 * A joined collaborator's answer, after the session's start, to whether it took place as logged.
 * One per collaborator and session; every joined collaborator confirming makes it Lineup-verified.
 */
export const lineupConfirmations = pgTable(
  "lineup_confirmations",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid()
      .notNull()
      .references(() => musicSessions.id, { onDelete: "cascade" }),
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    answer: text({ enum: LINEUP_ANSWERS }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex().on(t.sessionId, t.artistProfileId),
    index().on(t.artistProfileId),
    check("lineup_confirmations_answer_check", oneOf("answer", LINEUP_ANSWERS)),
  ],
);

// ─── Availability and bookings ───────────────────────────────────────────────────────────────

export const availability = pgTable(
  "availability",
  {
    id: uuid().primaryKey().defaultRandom(),
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    date: date({ mode: "string" }).notNull(),
    status: text({ enum: AVAILABILITY_STATUSES }).notNull(),
    notes: text(),
    // The artist's location and rating, copied by triggers (migration 0010, decision 015) so
    // "Available on" reads a day's marks best rated first, in one location, from an index alone.
    // Never written by the app.
    artistLocation: text().notNull().default(""),
    artistRating: numeric({ precision: 3, scale: 2, mode: "number" }).notNull().default(0),
    // And the hourly rate (migration 0031), for "Price: low to high" on a date.
    artistHourlyRate: numeric({ precision: 10, scale: 2, mode: "number" }),
    // And the search's signatures (migration 0032, decision 067), so a words search on a date
    // passes over the day's marks that cannot match from the index alone.
    artistSearchBits: signature().notNull().default(sql`0`),
    artistNameBits: signature().notNull().default(sql`0`),
    ...timestamps,
  },
  (t) => [
    uniqueIndex().on(t.artistProfileId, t.date),
    // "Available on": who marked a date available (listed first), best rated first; the
    // signatures last, for words (decision 067), then the rate, for a budget (decision 084).
    index("availability_available_on_idx")
      .on(
        t.date,
        t.artistRating.desc(),
        t.artistProfileId,
        t.artistSearchBits,
        t.artistNameBits,
        t.artistHourlyRate,
      )
      .where(sql`${t.status} = 'available'`),
    // The same within one location (the location filter is exact).
    index("availability_available_in_idx")
      .on(
        t.date,
        t.artistLocation,
        t.artistRating.desc(),
        t.artistProfileId,
        t.artistSearchBits,
        t.artistNameBits,
        t.artistHourlyRate,
      )
      .where(sql`${t.status} = 'available'`),
    // Both again, lowest hourly rate first ("Price: low to high" on a date; decision 066), with
    // the signatures last, so words, a genre or an occasion pass over marks in price order
    // without reading each one's artist (decision 089).
    index("availability_available_by_price_idx")
      .on(
        t.date,
        t.artistHourlyRate.asc().nullsLast(),
        t.artistProfileId,
        t.artistSearchBits,
        t.artistNameBits,
      )
      .where(sql`${t.status} = 'available'`),
    index("availability_available_in_by_price_idx")
      .on(
        t.date,
        t.artistLocation,
        t.artistHourlyRate.asc().nullsLast(),
        t.artistProfileId,
        t.artistSearchBits,
        t.artistNameBits,
      )
      .where(sql`${t.status} = 'available'`),
    check("availability_status_check", oneOf("status", AVAILABILITY_STATUSES)),
  ],
);

export const bookings = pgTable(
  "bookings",
  {
    id: uuid().primaryKey().defaultRandom(),
    // Nullable: a deleted account leaves the other party's booking with "Deleted user".
    artistProfileId: uuid().references(() => artistProfiles.id, { onDelete: "set null" }),
    clientUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    eventDate: date({ mode: "string" }).notNull(),
    startTime: time(),
    durationHours: numeric({ precision: 4, scale: 1, mode: "number" }).notNull(),
    venue: text().notNull(),
    eventType: text({ enum: EVENT_TYPES }).notNull(),
    eventName: text(),
    message: text(),
    status: text({ enum: BOOKING_STATUSES }).notNull().default("pending"),
    totalAmount: numeric({ precision: 12, scale: 2, mode: "number" }).notNull(),
    rating: integer(),
    review: text(),
    ratingGiven: boolean().notNull().default(false),
    // The client's choice, when rating or later: does the artist's public history show the venue?
    // Null until they choose (gigs rated before the choice existed), which hides it.
    venuePublic: boolean(),
    // The artist's optional reason when declining, shown to the client.
    declineReason: text(),
    // When the artist accepted or declined; when it was confirmed; when and by whom it was
    // cancelled, with the artist's required reason. The trust figures are computed from these.
    respondedAt: timestamp({ withTimezone: true }),
    confirmedAt: timestamp({ withTimezone: true }),
    cancelledAt: timestamp({ withTimezone: true }),
    cancelledBy: text({ enum: BOOKING_CANCELLERS }),
    cancelReason: text(),
    // What a cancellation of the agreed booking came to under its policy (cancellationOutcome).
    cancelOutcome: jsonb().$type<Record<string, unknown>>(),
    // Paid through GigLedger (docs/decisions/055): when the artist's share is released (the
    // event's end + 48 hours) and when it was.
    releaseAt: timestamp({ withTimezone: true }),
    payoutReleasedAt: timestamp({ withTimezone: true }),
    // iCalendar SEQUENCE of the booking's event in calendar feeds: a trigger (migration 0007) adds
    // one whenever what a calendar shows of it changes.
    calendarSequence: integer().notNull().default(0),
    // One request sent to several artists (decision 060): the bookings made by it share this id,
    // and when one of them is agreed the others still pending are withdrawn, each pointing at the
    // agreed one (`withdrawnForId`).
    requestGroupId: uuid(),
    withdrawnForId: uuid().references((): AnyPgColumn => bookings.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    check("bookings_status_check", oneOf("status", BOOKING_STATUSES)),
    check("bookings_cancelled_by_check", oneOf("cancelled_by", BOOKING_CANCELLERS)),
    check(
      "bookings_cancel_reason_check",
      sql`${t.cancelReason} IS NULL OR char_length(${t.cancelReason}) <= 500`,
    ),
    check(
      "bookings_decline_reason_check",
      sql`${t.declineReason} IS NULL OR char_length(${t.declineReason}) <= 500`,
    ),
    check("bookings_event_type_check", oneOf("event_type", EVENT_TYPES)),
    check(
      "bookings_duration_check",
      sql`${t.durationHours} >= 0.5 AND ${t.durationHours} <= 12 AND mod(${t.durationHours} * 2, 1) = 0`,
    ),
    check("bookings_amount_check", sql`${t.totalAmount} >= 0`),
    check(
      "bookings_rating_check",
      sql`${t.rating} IS NULL OR (${t.rating} >= 1 AND ${t.rating} <= 5)`,
    ),
    check("bookings_rating_given_check", sql`${t.ratingGiven} = (${t.rating} IS NOT NULL)`),
    index().on(t.artistProfileId, t.createdAt.desc()),
    // The artist's cancellations over the last twelve months, by when they were confirmed.
    index("bookings_artist_confirmed_idx")
      .on(t.artistProfileId, t.confirmedAt)
      .where(sql`${t.confirmedAt} IS NOT NULL`),
    index().on(t.clientUserId, t.createdAt.desc()),
    index("bookings_request_group_idx")
      .on(t.requestGroupId)
      .where(sql`${t.requestGroupId} IS NOT NULL`),
    index("bookings_open_by_date_idx")
      .on(t.eventDate)
      .where(sql`${t.status} IN ('pending', 'confirmed')`),
    // At most one confirmed (or completed) booking per artist and date.
    uniqueIndex("bookings_one_confirmed_per_date_idx")
      .on(t.artistProfileId, t.eventDate)
      .where(sql`${t.status} IN ('confirmed', 'completed')`),
  ],
);

/**
 * The days on which an artist is not free: marked booked or unavailable, holding a confirmed (or
 * completed) booking, or busy in an imported calendar. Written only by the triggers of migration
 * 0007, in the same transaction as the change to any of those sources, and read by the one rule
 * `freeOnDateSql` (app/features/availability/availability.server.ts). Decision 015.
 */
export const artistBusyDays = pgTable(
  "artist_busy_days",
  {
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    date: date({ mode: "string" }).notNull(),
    // The artist's location, copied by the triggers (migration 0010): "Available on" with a
    // location reads only that location's busy artists of the day.
    artistLocation: text().notNull().default(""),
  },
  (t) => [
    primaryKey({ columns: [t.artistProfileId, t.date] }),
    index("artist_busy_days_date_idx").on(t.date, t.artistLocation, t.artistProfileId),
  ],
);

/**
 * An artist's external calendar (the secret iCal address Google, Apple or Outlook give). Only the
 * busy days read from it are kept (imported_busy_days), never its events. Decision 016.
 */
export const externalCalendars = pgTable(
  "external_calendars",
  {
    id: uuid().primaryKey().defaultRandom(),
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    url: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // When a sync last started (an instance claims the calendar), last succeeded, and why the
    // last attempt failed (null after a success).
    syncStartedAt: timestamp({ withTimezone: true }),
    lastSyncedAt: timestamp({ withTimezone: true }),
    lastError: text(),
    // Set when a read ran out of time or memory, or crashed its worker: the background sync
    // leaves the calendar alone until its artist presses 'Sync now' (decision 041).
    stoppedAt: timestamp({ withTimezone: true }),
    stopReason: text({ enum: ["timeout", "memory", "crashed"] }),
  },
  (t) => [
    uniqueIndex().on(t.artistProfileId, t.url),
    check("external_calendars_url_check", sql`char_length(${t.url}) <= 2000`),
    check(
      "external_calendars_stop_reason_check",
      oneOf("stop_reason", ["timeout", "memory", "crashed"]),
    ),
    index("external_calendars_due_idx").on(t.syncStartedAt),
  ],
);

/** The busy days of one external calendar, as of its last successful sync. */
export const importedBusyDays = pgTable(
  "imported_busy_days",
  {
    calendarId: uuid()
      .notNull()
      .references(() => externalCalendars.id, { onDelete: "cascade" }),
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    date: date({ mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.calendarId, t.date] }), index().on(t.artistProfileId, t.date)],
);

/**
 * A private calendar feed: an artist's (their bookings and unavailable days) or a client's (their
 * bookings). The address holds a token derived from the server secret and `salt`; only its
 * SHA-256 hash is stored. A new salt (Reset link) makes the old address unknown. Decision 016.
 */
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text({ enum: ["artist", "client"] }).notNull(),
    salt: text().notNull(),
    tokenHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind] }),
    check("calendar_feeds_kind_check", oneOf("kind", ["artist", "client"])),
  ],
);

export const bookingMessages = pgTable(
  "booking_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    // A deleted account takes its messages with it (docs/product.md, Accounts).
    senderUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    message: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "booking_messages_length_check",
      sql`char_length(${t.message}) >= 1 AND char_length(${t.message}) <= 2000`,
    ),
    index().on(t.bookingId, t.createdAt),
  ],
);

/**
 * Per booking and party: when they last read its messages and when they were last mailed about
 * new ones (at most one message mail per 15 minutes while they have unread messages).
 */
export const bookingMessageReads = pgTable(
  "booking_message_reads",
  {
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastReadAt: timestamp({ withTimezone: true }),
    lastMailedAt: timestamp({ withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.userId] })],
);

// ─── Portfolio ────────────────────────────────────────────────────────────────────────────────

export const portfolios = pgTable(
  "portfolios",
  {
    id: uuid().primaryKey().defaultRandom(),
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    title: text().notNull(),
    description: text(),
    isPublic: boolean().notNull().default(false),
    isActive: boolean().notNull().default(true),
    autoGenerated: boolean().notNull().default(true),
    themeConfig: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    viewCount: integer().notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("portfolios_one_active_idx").on(t.artistProfileId).where(sql`${t.isActive}`),
    check("portfolios_view_count_check", sql`${t.viewCount} >= 0`),
  ],
);

export const portfolioAnalytics = pgTable(
  "portfolio_analytics",
  {
    id: uuid().primaryKey().defaultRandom(),
    portfolioId: uuid()
      .notNull()
      .references(() => portfolios.id, { onDelete: "cascade" }),
    eventType: text({ enum: ANALYTICS_EVENT_TYPES }).notNull(),
    mediaId: uuid().references(() => sessionMedia.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("portfolio_analytics_type_check", oneOf("event_type", ANALYTICS_EVENT_TYPES)),
    index().on(t.portfolioId, t.createdAt.desc()),
  ],
);

// ─── Instagram (Coming Soon; the collaboration indicator reads these) ─────────────────────────

export const instagramConnections = pgTable("instagram_connections", {
  id: uuid().primaryKey().defaultRandom(),
  userId: uuid()
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  instagramUserId: text(),
  username: text(),
  isActive: boolean().notNull().default(true),
  ...timestamps,
});

/** Artists the connected Instagram account follows, resolved to artist profiles. */
export const instagramFollows = pgTable(
  "instagram_follows",
  {
    connectionId: uuid()
      .notNull()
      .references(() => instagramConnections.id, { onDelete: "cascade" }),
    artistProfileId: uuid()
      .notNull()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex().on(t.connectionId, t.artistProfileId), index().on(t.artistProfileId)],
);

// ─── Signed credentials (docs/product.md, "The signed performance CV") ─────────────────────────

/** Places in the status list, taken before signing since the credential names its own place. */
export const credentialStatusIndexSeq = pgSequence("credential_status_index_seq", {
  startWith: 0,
  minValue: 0,
});

/**
 * One Open Badges credential issued for a session that reached Peer-confirmed or above. The
 * session and artist ids carry no foreign key on purpose: a credential outlives its session, since
 * revoking it needs the row (and its place in the status list).
 */
export const credentials = pgTable(
  "credentials",
  {
    id: uuid().primaryKey().defaultRandom(),
    sessionId: uuid().notNull(),
    artistProfileId: uuid().notNull(),
    // The credential's position in the Bitstring Status List (list = index / list size).
    statusIndex: integer().notNull(),
    level: text().notNull(),
    // SHA-256 of the unsigned claims: a refresh signs again only when they differ.
    claimsDigest: text().notNull(),
    // The signed credential exactly as issued (text, not jsonb, so its bytes never change).
    document: text().notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("credentials_status_index_idx").on(t.statusIndex),
    // At most one live credential per session.
    uniqueIndex("credentials_live_session_idx").on(t.sessionId).where(sql`${t.revokedAt} IS NULL`),
    index("credentials_live_artist_idx")
      .on(t.artistProfileId, t.issuedAt)
      .where(sql`${t.revokedAt} IS NULL`),
  ],
);

/** Every public key the issuer ever signed with: did.json lists them all, so old proofs verify. */
export const credentialIssuerKeys = pgTable("credential_issuer_keys", {
  publicKeyMultibase: text().primaryKey(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** The signed Bitstring Status List credentials, signed again whenever a bit flips. */
export const credentialStatusLists = pgTable("credential_status_lists", {
  listNumber: integer().primaryKey(),
  document: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Each artist's whole CV: a signed Verifiable Presentation of their live credentials. */
export const credentialPresentations = pgTable("credential_presentations", {
  artistProfileId: uuid()
    .primaryKey()
    .references(() => artistProfiles.id, { onDelete: "cascade" }),
  credentialCount: integer().notNull(),
  document: text().notNull(),
  // The same document gzipped (base64), made once when signed: a large CV is never compressed
  // per request.
  documentGzip: text().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Background work waiting, running or given up (app/lib/jobs.server.ts, decision 043). A job is
 * removed in the transaction that makes its effect; one given up keeps its last error.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    queue: text().notNull(),
    key: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    runAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    attempts: integer().notNull().default(0),
    maxAttempts: integer().notNull().default(5),
    /** Moves when the job is added again while it runs: it then runs once more. */
    revision: integer().notNull().default(0),
    /** The claim of the runner that has it, until `lockedUntil`. */
    lease: uuid(),
    lockedUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    failedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("jobs_waiting_key_idx").on(t.queue, t.key).where(sql`${t.failedAt} IS NULL`),
    index("jobs_due_idx").on(t.queue, t.runAt).where(sql`${t.failedAt} IS NULL`),
    check("jobs_attempts_check", sql`${t.attempts} >= 0 AND ${t.maxAttempts} >= 1`),
  ],
);

/** When each schedule next adds its job: one instance wins each interval. */
export const jobSchedules = pgTable("job_schedules", {
  queue: text().primaryKey(),
  nextRunAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * Mails sent by jobs, one row per mail (its key names the mail: `bookings.rating-mail:{id}:ask`).
 * A job inserts the row before sending and sends only when the insert added it: a mail goes out
 * at most once across instances, retries and restarts (decision 044).
 */
export const sentMails = pgTable("sent_mails", {
  key: text().primaryKey(),
  sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

// ─── Quotes and agreements (docs/decisions/047) ──────────────────────────────────────────────

/**
 * A booking's terms, version by version, never edited: version 1 is the client's request on the
 * artist's published terms, every later one the artist's quote. `canonical` is the offer's RFC 8785
 * JSON (an OfferDocument) and `sha256` its hash, which each party accepts. At most one is open.
 */
export const offers = pgTable(
  "offers",
  {
    id: uuid().primaryKey().defaultRandom(),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    version: integer().notNull(),
    kind: text({ enum: OFFER_KINDS }).notNull(),
    status: text({ enum: OFFER_STATUSES }).notNull().default("open"),
    totalPaise: bigint({ mode: "number" }).notNull(),
    expiresAt: timestamp({ withTimezone: true }),
    canonical: text().notNull(),
    sha256: text().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex().on(t.bookingId, t.version),
    uniqueIndex("offers_one_open_idx").on(t.bookingId).where(sql`${t.status} = 'open'`),
    check("offers_version_check", sql`${t.version} >= 1`),
    check("offers_kind_check", oneOf("kind", OFFER_KINDS)),
    check("offers_status_check", oneOf("status", OFFER_STATUSES)),
    check("offers_total_check", sql`${t.totalPaise} >= 0 AND ${t.totalPaise} <= 2500000000`),
    check("offers_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** Each party's acceptance of an offer: who, when, the hash they were shown. Never updated. */
export const offerAcceptances = pgTable(
  "offer_acceptances",
  {
    id: uuid().primaryKey().defaultRandom(),
    offerId: uuid()
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    party: text({ enum: AGREEMENT_PARTIES }).notNull(),
    userId: uuid().references(() => users.id, { onDelete: "set null" }),
    acceptedAt: timestamp({ withTimezone: true }).notNull(),
    sha256Shown: text().notNull(),
    ip: text(),
    userAgent: text(),
  },
  (t) => [
    uniqueIndex().on(t.offerId, t.party),
    check("offer_acceptances_party_check", oneOf("party", AGREEMENT_PARTIES)),
  ],
);

/** The client's "Ask for Changes" on an open quote: a message and optional wishes. */
export const offerChangeRequests = pgTable(
  "offer_change_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    offerId: uuid()
      .notNull()
      .references(() => offers.id, { onDelete: "cascade" }),
    requestedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    message: text().notNull(),
    wishedTotalPaise: bigint({ mode: "number" }),
    wishedDepositBps: integer(),
    wishedPolicy: text({ enum: POLICY_CODES }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.offerId),
    check("offer_change_requests_message_check", sql`char_length(${t.message}) BETWEEN 1 AND 2000`),
  ],
);

/**
 * An offer both parties accepted, frozen: `json` is agreement.json's exact bytes (a SignedAgreement
 * in canonical JSON) and `sha256` the agreement's hash. A trigger refuses any change to either.
 * At most one agreement of a booking is in force; a change both accept supersedes it.
 */
export const agreements = pgTable(
  "agreements",
  {
    id: uuid().primaryKey().defaultRandom(),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    offerId: uuid()
      .notNull()
      .unique()
      .references(() => offers.id, { onDelete: "cascade" }),
    status: text({ enum: AGREEMENT_STATUSES }).notNull().default("in_force"),
    json: text().notNull(),
    sha256: text().notNull().unique(),
    // Whether the money goes through GigLedger or between the parties (as the agreement says).
    paidThrough: text({ enum: PAID_THROUGH }).notNull().default("direct"),
    frozenAt: timestamp({ withTimezone: true }).notNull(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("agreements_one_in_force_idx").on(t.bookingId).where(sql`${t.status} = 'in_force'`),
    check("agreements_status_check", oneOf("status", AGREEMENT_STATUSES)),
    check("agreements_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check("agreements_paid_through_check", oneOf("paid_through", PAID_THROUGH)),
  ],
);

// ─── Ledger (docs/decisions/050) ─────────────────────────────────────────────────────────────

/**
 * An account of the double-entry ledger: `world:razorpay`, `platform:*`, `booking:{id}:*`,
 * `artist:{profileId}:released`. Its balance is inflows minus outflows, moved only by legs
 * (triggers in migration 0018); only an account that allows it goes below zero. No foreign key to
 * the booking or the artist: the books outlive both rows.
 */
export const ledgerAccounts = pgTable(
  "ledger_accounts",
  {
    id: text().primaryKey(),
    kind: text({ enum: LEDGER_ACCOUNT_KINDS }).notNull(),
    bookingId: uuid(),
    artistProfileId: uuid(),
    allowNegative: boolean().notNull().default(false),
    balance: bigint({ mode: "number" }).notNull().default(0),
    version: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [
    index().on(t.bookingId),
    check("ledger_accounts_kind_check", oneOf("kind", LEDGER_ACCOUNT_KINDS)),
    check("ledger_accounts_nonneg", sql`${t.allowNegative} OR ${t.balance} >= 0`),
    check(
      "ledger_accounts_id_check",
      sql`${t.id} ~ '^(world|platform|booking|artist):[^:]+(:[a-z_]+)?$'`,
    ),
  ],
);

/**
 * One business fact in the books, posted once (`idempotencyKey`, e.g. `capture:pay_…`) with the
 * SHA-256 of its legs, written only by `ledger_post()` and never changed: a correction is a new
 * transaction that `reverses` it. `effectiveAt` is the provider's or the clock's time, never now().
 */
export const ledgerTxns = pgTable(
  "ledger_txns",
  {
    id: uuid().primaryKey().defaultRandom(),
    seq: bigint({ mode: "number" }).notNull().unique().generatedAlwaysAsIdentity(),
    idempotencyKey: text().notNull().unique(),
    kind: text({ enum: LEDGER_TXN_KINDS }).notNull(),
    bookingId: uuid(),
    effectiveAt: timestamp({ withTimezone: true }).notNull(),
    /** `event:<provider event id>`, `command:<id>`, `job:<name>` or `admin:<user id>`. */
    source: text().notNull(),
    legsDigest: text().notNull(),
    reverses: uuid().references((): AnyPgColumn => ledgerTxns.id),
  },
  (t) => [
    index().on(t.bookingId),
    check("ledger_txns_kind_check", oneOf("kind", LEDGER_TXN_KINDS)),
    check("ledger_txns_source_check", sql`${t.source} ~ '^(event|command|job|admin):.+$'`),
    check("ledger_txns_digest_check", sql`${t.legsDigest} ~ '^[0-9a-f]{64}$'`),
  ],
);

/** A positive amount of paise moved from one account to another by a transaction. Never changed. */
export const ledgerLegs = pgTable(
  "ledger_legs",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    txnId: uuid()
      .notNull()
      .references(() => ledgerTxns.id),
    fromAccount: text()
      .notNull()
      .references(() => ledgerAccounts.id),
    toAccount: text()
      .notNull()
      .references(() => ledgerAccounts.id),
    amount: bigint({ mode: "number" }).notNull(),
  },
  (t) => [
    index().on(t.txnId),
    index().on(t.fromAccount),
    index().on(t.toAccount),
    check("ledger_legs_amount_check", sql`${t.amount} > 0`),
    check("ledger_legs_accounts_check", sql`${t.fromAccount} <> ${t.toAccount}`),
  ],
);

// ─── Money through the platform (docs/decisions/055) ────────────────────────────────────────

/**
 * An artist's payout set-up: the provider's linked account that receives their share. Only a
 * masked display of the bank account or UPI address and of the PAN is kept here; the provider
 * holds the rest.
 */
export const payoutAccounts = pgTable(
  "payout_accounts",
  {
    artistProfileId: uuid()
      .primaryKey()
      .references(() => artistProfiles.id, { onDelete: "cascade" }),
    legalName: text().notNull(),
    panMasked: text().notNull(),
    method: text({ enum: PAYOUT_METHODS }).notNull(),
    /** "UPI asha@okhdfc" or "Bank account ••••1234 (HDFC0001234)". */
    destination: text().notNull(),
    provider: text({ enum: PROVIDERS }).notNull(),
    providerAccountId: text().notNull().unique(),
    ...timestamps,
  },
  (t) => [
    check("payout_accounts_method_check", oneOf("method", PAYOUT_METHODS)),
    check("payout_accounts_provider_check", oneOf("provider", PROVIDERS)),
    check("payout_accounts_legal_name_check", sql`char_length(${t.legalName}) BETWEEN 2 AND 120`),
  ],
);

/**
 * What the client is asked to pay for a booking (deposit, balance, or everything at once) and
 * what became of it. The split is fixed when the intent is made: the artist's net share, the
 * commission, the GST on it and the TDS. At most one live intent per purpose, and at most one
 * captured: a refresh or a second click cannot charge twice.
 */
export const paymentIntents = pgTable(
  "payment_intents",
  {
    id: uuid().primaryKey().defaultRandom(),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id),
    agreementId: uuid()
      .notNull()
      .references(() => agreements.id),
    purpose: text({ enum: PAYMENT_PURPOSES }).notNull(),
    amountPaise: bigint({ mode: "number" }).notNull(),
    artistSharePaise: bigint({ mode: "number" }).notNull(),
    commissionPaise: bigint({ mode: "number" }).notNull(),
    gstPaise: bigint({ mode: "number" }).notNull(),
    tdsPaise: bigint({ mode: "number" }).notNull(),
    provider: text({ enum: PROVIDERS }).notNull(),
    providerLinkId: text().unique(),
    checkoutUrl: text(),
    providerPaymentId: text().unique(),
    status: text({ enum: PAYMENT_INTENT_STATUSES }).notNull().default("created"),
    /** When it is due (the balance's due date; the deposit's is when it was asked for). */
    dueAt: timestamp({ withTimezone: true }).notNull(),
    /** Until when the checkout takes the payment (the deposit window; the balance's grace). */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    capturedAt: timestamp({ withTimezone: true }),
    refundedPaise: bigint({ mode: "number" }).notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index().on(t.bookingId),
    uniqueIndex("payment_intents_one_live_idx")
      .on(t.bookingId, t.purpose)
      .where(sql`${t.status} IN ('created', 'pending')`),
    uniqueIndex("payment_intents_one_captured_idx")
      .on(t.bookingId, t.purpose)
      .where(sql`${t.status} = 'captured'`),
    check("payment_intents_purpose_check", oneOf("purpose", PAYMENT_PURPOSES)),
    check("payment_intents_status_check", oneOf("status", PAYMENT_INTENT_STATUSES)),
    check("payment_intents_provider_check", oneOf("provider", PROVIDERS)),
    check(
      "payment_intents_split_check",
      sql`${t.amountPaise} > 0 AND ${t.artistSharePaise} >= 0 AND ${t.commissionPaise} >= 0 AND ${t.gstPaise} >= 0 AND ${t.tdsPaise} >= 0 AND ${t.artistSharePaise} + ${t.commissionPaise} + ${t.gstPaise} + ${t.tdsPaise} = ${t.amountPaise}`,
    ),
    check(
      "payment_intents_refunded_check",
      sql`${t.refundedPaise} >= 0 AND ${t.refundedPaise} <= ${t.amountPaise}`,
    ),
  ],
);

/** The artist's share of a captured payment, transferred to their linked account on hold. */
export const providerTransfers = pgTable(
  "provider_transfers",
  {
    id: text().primaryKey(),
    intentId: uuid()
      .notNull()
      .unique()
      .references(() => paymentIntents.id),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id),
    amountPaise: bigint({ mode: "number" }).notNull(),
    reversedPaise: bigint({ mode: "number" }).notNull().default(0),
    onHold: boolean().notNull().default(true),
    releasedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.bookingId),
    check(
      "provider_transfers_amount_check",
      sql`${t.amountPaise} > 0 AND ${t.reversedPaise} >= 0 AND ${t.reversedPaise} <= ${t.amountPaise}`,
    ),
  ],
);

/** A refund the provider made of one payment. */
export const providerRefunds = pgTable(
  "provider_refunds",
  {
    id: text().primaryKey(),
    intentId: uuid()
      .notNull()
      .references(() => paymentIntents.id),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id),
    amountPaise: bigint({ mode: "number" }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.bookingId),
    check("provider_refunds_amount_check", sql`${t.amountPaise} > 0`),
  ],
);

/**
 * The outbox: every call GigLedger makes to the provider that moves money, written in the same
 * transaction as the decision that needs it, with the idempotency key the provider receives, and
 * worked by the `payments.command` job until it succeeds.
 */
export const providerCommands = pgTable(
  "provider_commands",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text({ enum: PROVIDER_COMMAND_KINDS }).notNull(),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id),
    intentId: uuid().references(() => paymentIntents.id),
    idempotencyKey: text().notNull().unique(),
    request: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text({ enum: PROVIDER_COMMAND_STATUSES }).notNull().default("pending"),
    attempts: integer().notNull().default(0),
    response: jsonb().$type<Record<string, unknown>>(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index().on(t.bookingId),
    index("provider_commands_open_idx").on(t.createdAt).where(sql`${t.status} <> 'succeeded'`),
    check("provider_commands_kind_check", oneOf("kind", PROVIDER_COMMAND_KINDS)),
    check("provider_commands_status_check", oneOf("status", PROVIDER_COMMAND_STATUSES)),
  ],
);

/**
 * A booking's money timeline: each event once (`key`), at the app clock's time, shown on the
 * booking page and mailed to whom it concerns.
 */
export const moneyEvents = pgTable(
  "money_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id),
    key: text().notNull().unique(),
    kind: text({ enum: MONEY_EVENT_KINDS }).notNull(),
    amountPaise: bigint({ mode: "number" }),
    at: timestamp({ withTimezone: true }).notNull(),
    detail: jsonb().$type<Record<string, string | number | null>>().notNull().default({}),
  },
  (t) => [
    index().on(t.bookingId, t.at),
    check("money_events_kind_check", oneOf("kind", MONEY_EVENT_KINDS)),
  ],
);

/**
 * Problem reports (issue 42, decision 058): one per party per booking, from the confirmation until
 * the payout's release time; the payout is held while one is undecided. The other party answers
 * once; an operator decides, with a reason both parties see.
 */
export const problemReports = pgTable(
  "problem_reports",
  {
    id: uuid().primaryKey().defaultRandom(),
    bookingId: uuid()
      .notNull()
      .references(() => bookings.id),
    party: text({ enum: AGREEMENT_PARTIES }).notNull(),
    reporterUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    category: text({ enum: PROBLEM_CATEGORIES }).notNull(),
    statement: text().notNull(),
    reportedAt: timestamp({ withTimezone: true }).notNull(),
    decisionDueAt: timestamp({ withTimezone: true }).notNull(),
    answer: text(),
    answeredAt: timestamp({ withTimezone: true }),
    answeredByUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    decision: text({ enum: PROBLEM_DECISIONS }),
    refundPaise: bigint({ mode: "number" }),
    decisionReason: text(),
    decidedAt: timestamp({ withTimezone: true }),
    decidedByUserId: uuid().references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex().on(t.bookingId, t.party),
    index().on(t.decidedAt, t.decisionDueAt),
    check("problem_reports_category_check", oneOf("category", PROBLEM_CATEGORIES)),
    check("problem_reports_party_check", oneOf("party", AGREEMENT_PARTIES)),
    check("problem_reports_decision_check", oneOf("decision", PROBLEM_DECISIONS)),
    check("problem_reports_statement_check", sql`length(${t.statement}) BETWEEN 1 AND 2000`),
    check(
      "problem_reports_answer_check",
      sql`${t.answer} IS NULL OR length(${t.answer}) BETWEEN 1 AND 2000`,
    ),
    check(
      "problem_reports_decided_check",
      sql`(${t.decision} IS NULL) = (${t.decidedAt} IS NULL) AND (${t.decision} IS NULL) = (${t.decisionReason} IS NULL)`,
    ),
    check("problem_reports_refund_check", sql`${t.refundPaise} IS NULL OR ${t.refundPaise} >= 0`),
  ],
);

/** Files attached to a problem report or to its answer, stored and hashed like session media. */
export const problemFiles = pgTable(
  "problem_files",
  {
    id: uuid().primaryKey().defaultRandom(),
    reportId: uuid()
      .notNull()
      .references(() => problemReports.id),
    side: text({ enum: ["report", "answer"] as const }).notNull(),
    name: text().notNull(),
    contentType: text().notNull(),
    sizeBytes: integer().notNull(),
    sha256: text().notNull(),
    storageKey: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index().on(t.reportId),
    check("problem_files_side_check", sql`${t.side} IN ('report', 'answer')`),
    check("problem_files_sha256_check", sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check("problem_files_size_check", sql`${t.sizeBytes} > 0`),
  ],
);

/** The reconciliation report of each day, kept by the daily job for the operator's desk. */
export const reconciliationRuns = pgTable("reconciliation_runs", {
  day: date({ mode: "string" }).primaryKey(),
  unexplainedPaise: bigint({ mode: "number" }).notNull(),
  clean: boolean().notNull(),
  report: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * An artist's rating of a client after a completed booking (issue 42, two-way trust): shown to
 * other artists beside the client's record on the client's later requests. One per booking.
 */
export const clientRatings = pgTable(
  "client_ratings",
  {
    id: uuid().primaryKey().defaultRandom(),
    bookingId: uuid()
      .notNull()
      .unique()
      .references(() => bookings.id, { onDelete: "cascade" }),
    clientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    artistProfileId: uuid().references(() => artistProfiles.id, { onDelete: "set null" }),
    stars: integer().notNull(),
    comment: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index().on(t.clientUserId),
    check("client_ratings_stars_check", sql`${t.stars} BETWEEN 1 AND 5`),
    check("client_ratings_comment_check", sql`${t.comment} IS NULL OR length(${t.comment}) <= 500`),
  ],
);

/** Every operator action, with who and when (issue 42): append-only. */
export const operatorLog = pgTable(
  "operator_log",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** No foreign key: the log outlives the account (append-only, so nothing may null it). */
    operatorUserId: text().notNull(),
    operatorEmail: text().notNull(),
    action: text().notNull(),
    target: text().notNull(),
    detail: jsonb().$type<Record<string, string | number | null>>().notNull().default({}),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index().on(t.at)],
);

/**
 * The commission invoices GigLedger issues to artists, numbered without gaps per Indian financial
 * year (April to March): the number comes from `invoice_counters` in the issuing transaction.
 */
export const commissionInvoices = pgTable(
  "commission_invoices",
  {
    id: uuid().primaryKey().defaultRandom(),
    financialYear: text().notNull(),
    number: integer().notNull(),
    bookingId: uuid()
      .notNull()
      .unique()
      .references(() => bookings.id),
    artistProfileId: uuid(),
    commissionPaise: bigint({ mode: "number" }).notNull(),
    gstPaise: bigint({ mode: "number" }).notNull(),
    issuedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex("commission_invoices_number_idx").on(t.financialYear, t.number),
    check("commission_invoices_fy_check", sql`${t.financialYear} ~ '^[0-9]{4}-[0-9]{2}$'`),
    check("commission_invoices_number_check", sql`${t.number} > 0`),
  ],
);

export const invoiceCounters = pgTable("invoice_counters", {
  financialYear: text().primaryKey(),
  lastNumber: integer().notNull().default(0),
});

// ─── Provider events (docs/decisions/052) ────────────────────────────────────────────────────

/**
 * The inbox: each event a payment provider delivered, once per (provider, event id) however often
 * it was delivered, with the body exactly as received (the bytes its signature covers, as UTF-8).
 * Stored before it is processed; `processedAt` stays null until a worker has applied it.
 */
export const providerEvents = pgTable(
  "provider_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    provider: text({ enum: PROVIDERS }).notNull(),
    eventId: text().notNull(),
    eventType: text().notNull(),
    rawBody: text().notNull(),
    signatureOk: boolean().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull(),
    processedAt: timestamp({ withTimezone: true }),
    attempts: integer().notNull().default(0),
    lastError: text(),
    /** What processing made of it: applied, ignored (nothing to do), orphan, mismatch, refunded. */
    outcome: text({ enum: PROVIDER_EVENT_OUTCOMES }),
  },
  (t) => [
    check("provider_events_outcome_check", oneOf("outcome", PROVIDER_EVENT_OUTCOMES)),
    uniqueIndex("provider_events_provider_event_id_idx").on(t.provider, t.eventId),
    index("provider_events_unprocessed_idx").on(t.processedAt).where(sql`${t.processedAt} IS NULL`),
    check("provider_events_provider_check", oneOf("provider", PROVIDERS)),
    check("provider_events_attempts_check", sql`${t.attempts} >= 0`),
  ],
);

// ─── Embedded payment provider (docs/decisions/053) ──────────────────────────────────────────
// These tables belong to the embedded, local-only Razorpay-compatible fake (server/dev-psp/),
// never to the product: they stand in for the provider's own books. No feature reads them.

/** A fake Razorpay order; `receipt` is unique, so a retried create returns the same order. */
export const pspOrders = pgTable(
  "psp_orders",
  {
    id: text().primaryKey(),
    amount: bigint({ mode: "number" }).notNull(),
    amountPaid: bigint({ mode: "number" }).notNull().default(0),
    currency: text().notNull(),
    receipt: text(),
    status: text().notNull(),
    attempts: integer().notNull().default(0),
    notes: jsonb().$type<Record<string, string>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("psp_orders_receipt_idx").on(t.receipt),
    check("psp_orders_amount_check", sql`${t.amount} > 0`),
    check("psp_orders_status_check", sql`${t.status} IN ('created', 'attempted', 'paid')`),
  ],
);

/** A fake Razorpay payment on an order: captured or failed at once by the hosted checkout. */
export const pspPayments = pgTable(
  "psp_payments",
  {
    id: text().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => pspOrders.id),
    amount: bigint({ mode: "number" }).notNull(),
    amountRefunded: bigint({ mode: "number" }).notNull().default(0),
    currency: text().notNull(),
    status: text().notNull(),
    errorCode: text(),
    errorDescription: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.orderId),
    check("psp_payments_status_check", sql`${t.status} IN ('captured', 'refunded', 'failed')`),
    check(
      "psp_payments_refunded_check",
      sql`${t.amountRefunded} >= 0 AND ${t.amountRefunded} <= ${t.amount}`,
    ),
  ],
);

/** A fake Razorpay refund; one per `X-Refund-Idempotency` key, with the digest of its request. */
export const pspRefunds = pgTable(
  "psp_refunds",
  {
    id: text().primaryKey(),
    paymentId: text()
      .notNull()
      .references(() => pspPayments.id),
    amount: bigint({ mode: "number" }).notNull(),
    status: text().notNull(),
    idempotencyKey: text(),
    requestDigest: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.paymentId),
    uniqueIndex("psp_refunds_idempotency_key_idx").on(t.idempotencyKey),
    check("psp_refunds_amount_check", sql`${t.amount} > 0`),
  ],
);

/** Each webhook the fake sends: the signed body as sent, delivered by the `dev-psp-webhook` job. */
export const pspWebhookDeliveries = pgTable("psp_webhook_deliveries", {
  id: text().primaryKey(),
  event: text().notNull(),
  targetUrl: text().notNull(),
  body: text().notNull(),
  signature: text().notNull(),
  attempts: integer().notNull().default(0),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  deliveredAt: timestamp({ withTimezone: true }),
});

/** A fake Razorpay Payment Link: a hosted page that takes one payment of its order. */
export const pspPaymentLinks = pgTable(
  "psp_payment_links",
  {
    id: text().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => pspOrders.id),
    referenceId: text().notNull().unique(),
    amount: bigint({ mode: "number" }).notNull(),
    status: text().notNull(),
    description: text().notNull(),
    expireBy: timestamp({ withTimezone: true }),
    callbackUrl: text(),
    customer: jsonb().$type<Record<string, string>>().notNull(),
    notes: jsonb().$type<Record<string, string>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("psp_payment_links_amount_check", sql`${t.amount} > 0`),
    check(
      "psp_payment_links_status_check",
      sql`${t.status} IN ('created', 'partially_paid', 'paid', 'cancelled', 'expired')`,
    ),
  ],
);

/** A fake Route linked account (an artist's), made once per `Idempotency-Key`. */
export const pspAccounts = pgTable("psp_accounts", {
  id: text().primaryKey(),
  idempotencyKey: text().unique(),
  referenceId: text(),
  email: text().notNull(),
  legalName: text().notNull(),
  status: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** A fake Route transfer of part of a payment to a linked account, possibly on hold. */
export const pspTransfers = pgTable(
  "psp_transfers",
  {
    id: text().primaryKey(),
    paymentId: text()
      .notNull()
      .references(() => pspPayments.id),
    accountId: text()
      .notNull()
      .references(() => pspAccounts.id),
    amount: bigint({ mode: "number" }).notNull(),
    amountReversed: bigint({ mode: "number" }).notNull().default(0),
    onHold: boolean().notNull(),
    settled: boolean().notNull().default(false),
    notes: jsonb().$type<Record<string, string>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.paymentId),
    check(
      "psp_transfers_amount_check",
      sql`${t.amount} > 0 AND ${t.amountReversed} >= 0 AND ${t.amountReversed} <= ${t.amount}`,
    ),
  ],
);

/** A fake reversal of (part of) a transfer. */
export const pspReversals = pgTable(
  "psp_reversals",
  {
    id: text().primaryKey(),
    transferId: text()
      .notNull()
      .references(() => pspTransfers.id),
    amount: bigint({ mode: "number" }).notNull(),
    notes: jsonb().$type<Record<string, string>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.transferId), check("psp_reversals_amount_check", sql`${t.amount} > 0`)],
);
