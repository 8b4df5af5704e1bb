// Plain values shared by forms, pages and the server: no Zod here, so pages stay light.

export const GENRES = [
  "Jazz",
  "Rock",
  "Classical",
  "Hip-Hop",
  "Pop",
  "Blues",
  "Country",
  "Bollywood",
] as const;
export const LOCATIONS = [
  "New York NY",
  "Los Angeles CA",
  "San Francisco CA",
  "Atlanta GA",
  "Chicago IL",
  "New Delhi",
] as const;
export const DISCOVERY_PAGE_SIZE = 24;

/**
 * The last page of a discovery search (decision 081): its first 960 artists. A page further on
 * would read every artist before it, and nobody pages that far rather than narrow the search.
 */
export const DISCOVERY_LAST_PAGE = 40;

/** Discovery's orders: "" is the best match with words (best rated without), "price" the lowest rate. */
export const DISCOVERY_SORTS = ["", "price"] as const;
/** The hours a budget is for until the visitor chooses (an evening's set). */
export const BUDGET_HOURS_DEFAULT = 3;

/**
 * Counts stop here: a larger total reads "More than 50", two pages of results and more. Counting
 * every free artist of a broad search costs ~60 ms at a million artists; stopping at the limit
 * keeps it within the 20 ms target (decision 015), and the page with words on a date nearer its
 * 50 ms: its count walks the location's best rated artists until it finds one more than this
 * (decisions 068, 079). A client choosing among more than 50 narrows the search; below, the
 * exact number is what helps. At least two pages (decision 077 shares the count's walk with the
 * first page on that ground).
 */
export const FREE_COUNT_LIMIT = 50;
