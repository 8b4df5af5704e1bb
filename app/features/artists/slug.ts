/**
 * The artist name in lower case, spaces to hyphens, other characters outside a-z0-9- dropped
 * (decisions.md). An empty result falls back to "artist".
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
