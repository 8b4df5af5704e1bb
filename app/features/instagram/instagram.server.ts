import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { queryRows } from "~db/client";
import { instagramConnections } from "~db/schema";

/** What an artist's profile tells its viewer about artists they follow who played with them. */
export type CollaborationInsight = {
  hasInstagramConnection: boolean;
  collaborationCount: number;
  shouldShowIndicator: boolean;
};

const NONE: CollaborationInsight = {
  hasInstagramConnection: false,
  collaborationCount: 0,
  shouldShowIndicator: false,
};

/**
 * The collaboration indicator shows only to a signed-in viewer with an active Instagram
 * connection, and only when at least one collaboration was found.
 */
export function shouldShowCollaborationIndicator(
  signedIn: boolean,
  hasInstagramConnection: boolean,
  collaborationCount: number,
) {
  return signedIn && hasInstagramConnection && collaborationCount > 0;
}

/**
 * How many artists the viewer follows on Instagram (their active connection's follows) have
 * collaborated with `artistId`: appeared together in a session, one as its owner and the other as
 * a verified participant (collaborator or verifier), in either direction; the artist themself
 * does not count. Callers log a failed read and use "none", so the indicator simply stays hidden
 * and the profile still shows.
 */
export async function getCollaborationInsight(
  ctx: Pick<AppContext, "db">,
  viewer: Actor,
  artistId: string,
): Promise<CollaborationInsight> {
  const viewerUserId = viewer?.id;
  if (!viewerUserId || !isUuid(artistId)) return NONE;
  const { db } = ctx;
  const [connection] = await db
    .select({ id: instagramConnections.id })
    .from(instagramConnections)
    .where(
      and(eq(instagramConnections.userId, viewerUserId), eq(instagramConnections.isActive, true)),
    );
  if (!connection) return NONE;
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(DISTINCT f.artist_profile_id)::int AS count
        FROM instagram_follows f
        WHERE f.connection_id = ${connection.id}
          AND f.artist_profile_id <> ${artistId}
          AND EXISTS (
            SELECT 1 FROM music_sessions s
            JOIN session_participants p ON p.session_id = s.id
            WHERE p.verification_status = 'verified'
              AND ((s.artist_profile_id = ${artistId} AND p.artist_profile_id = f.artist_profile_id)
                OR (s.artist_profile_id = f.artist_profile_id AND p.artist_profile_id = ${artistId}))
          )`,
  );
  const collaborationCount = Number(row?.count ?? 0);
  return {
    hasInstagramConnection: true,
    collaborationCount,
    shouldShowIndicator: shouldShowCollaborationIndicator(true, true, collaborationCount),
  };
}

/**
 * The addresses Meta's app settings ask for (OAuth redirect, privacy policy, data deletion),
 * built from APP_URL so they follow the server's public address.
 */
export function instagramRequiredUrls(appUrl: URL | string) {
  const at = (path: string) => new URL(path, appUrl).href;
  return {
    redirectUri: at("/functions/instagram-oauth?action=callback"),
    privacyPolicyUrl: at("/privacy-policy"),
    dataDeletionUrl: at("/data-deletion"),
  };
}
