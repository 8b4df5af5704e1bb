import { getTrustFigures } from "~/features/trust/trust.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import type { DiscoveryQuery } from "./artists.schema";
import { countFreeArtists, getDiscoveryFacets, searchArtists } from "./artists.server";

/**
 * Everything /artist-discovery shows for a query: the page of artists, the filters' values, how
 * many are free on the date (with one), and the page's artists' trust figures. The route's loader
 * and `npm run bench:discovery` both call this, so the bench measures what a visitor waits for.
 */
export async function loadDiscovery(
  ctx: Pick<AppContext, "db">,
  viewer: Actor,
  query: DiscoveryQuery,
) {
  const [result, facets, freeCount] = await Promise.all([
    searchArtists(ctx, viewer, query),
    getDiscoveryFacets(ctx, viewer),
    countFreeArtists(ctx, viewer, query),
  ]);
  // The page's artists' figures in one round trip (they need the page's ids).
  const trust = await getTrustFigures(
    ctx,
    viewer,
    result.artists.map((a) => a.id),
  );
  return { ...result, facets, trust, freeCount };
}
