/** How often calendar apps are asked to fetch a feed, and how often imported calendars are read. */
export const FEED_REFRESH_MINUTES = 15;
export const SYNC_EVERY_MINUTES = 15;

/** The two kinds of private feed: an artist's schedule, a client's bookings. */
export const FEED_KINDS = ["artist", "client"] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

/** Imported calendars: how many per artist, how far ahead busy days are read. */
export const MAX_CALENDARS_PER_ARTIST = 5;
export const IMPORT_HORIZON_DAYS = 400;
/** Feeds out: bookings and unavailable days from this many days back. */
export const FEED_PAST_DAYS = 90;
