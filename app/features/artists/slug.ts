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

/** The first of `base`, `base-2`, `base-3`… that `isTaken` says is free. */
export async function uniqueSlug(base: string, isTaken: (slug: string) => Promise<boolean>) {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await isTaken(candidate))) return candidate;
  }
}
