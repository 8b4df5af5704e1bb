/**
 * An artist's public address (/artist/{slug}): the artist name in lower case, spaces to hyphens,
 * other characters outside a-z0-9- dropped. An empty result falls back to "artist"; a taken one
 * gets -2, -3… (createArtistProfile).
 */
export function slugify(artistName: string): string {
  const slug = artistName
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
  return slug || "artist";
}

const SLUG = /^[a-z0-9-]{1,200}$/;

/** Could this be a slug? Anything else in an address is simply not found, never a query. */
export const isSlug = (value: string): boolean => SLUG.test(value);
