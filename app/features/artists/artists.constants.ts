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
