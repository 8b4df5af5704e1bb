/** How often calendar apps are asked to fetch a feed, and how often imported calendars are read. */
export const FEED_REFRESH_MINUTES = 15;
export const SYNC_EVERY_MINUTES = 15;
/** Reads a user asks for ('Sync now' and adding a calendar), and how often one calendar is read. */
export const SYNC_NOW_LIMIT = { max: 10, windowMs: 10 * 60_000 };
export const SYNC_NOW_MIN_INTERVAL_MS = 60_000;

/** The two kinds of private feed: an artist's schedule, a client's bookings. */
export const FEED_KINDS = ["artist", "client"] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/**
 * Imported calendars: how many per artist (held by a trigger of migration 0012 too: change both),
 * how far ahead busy days are read.
 */
export const MAX_CALENDARS_PER_ARTIST = 5;
export const IMPORT_HORIZON_DAYS = 400;
/**
 * Reading one imported file (decision 041): its worker's time and heap. A 5 MB file (the most
 * fetched) of 30,000 events takes about 2 s and 140 MB here, 7 s on a machine three times busier.
 */
export const READ_LIMITS = { timeoutMs: 10_000, memoryMb: 256 };
/** Feeds out: bookings and unavailable days from this many days back. */
export const FEED_PAST_DAYS = 90;
