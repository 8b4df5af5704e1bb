import { plural } from "~/lib/number-text";

/** Where a search's words appear for one artist (searchMatches). */
export type SearchMatch = {
  profile: boolean;
  occasions: boolean;
  bio: boolean;
  sessions: number;
  reviews: number;
};

/** "a, b and c" */
function listed(parts: string[]) {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/**
 * The card's line on why a search found the artist: 'Mentions “wedding sitar” in the bio,
 * 2 session titles and 3 reviews'. Null when only a part of a name matched (the name shows it).
 */
export function matchText(q: string, match: SearchMatch | undefined): string | null {
  if (!match) return null;
  const parts = [
    match.profile ? "the profile" : null,
    match.occasions ? "the occasions played" : null,
    match.bio ? "the bio" : null,
    match.sessions > 0 ? plural(match.sessions, "session title") : null,
    match.reviews > 0 ? plural(match.reviews, "review") : null,
  ].filter((p): p is string => p !== null);
  if (parts.length === 0) return null;
  return `Mentions “${q}” in ${listed(parts)}`;
}
