/**
 * Public pages (landing, discovery, profiles, portfolios, the static pages) may be kept by a
 * shared cache such as a CDN: fresh for a minute, then served stale for up to five while it
 * refreshes. A route opts in with `export const headers = publicPageHeaders`; server/app.ts
 * (`applyCachePolicy`) turns the answer private whenever the visitor is signed in, the answer sets
 * a cookie, or it is not a 200, so a shared cache only ever holds what any anonymous visitor sees.
 */
const SHARED_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
export const PRIVATE_CACHE_CONTROL = "private, no-store";

export function publicPageHeaders(): Record<string, string> {
  return { "Cache-Control": SHARED_CACHE_CONTROL, Vary: "Cookie" };
}
