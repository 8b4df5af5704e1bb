import { and, eq, inArray } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import type { Queryable } from "~db/client";
import { artistProfiles, sessionMedia } from "~db/schema";
import { ownSessionIds } from "./own-sessions.server";
import type { ProfileMediaSlot } from "./portfolio.schema";

// The media clients meet first (issue 43): a cover photo and one featured audio clip per artist,
// chosen in the portfolio manager, shown on the discovery card and atop the profile.

/** What each slot holds and the media type it takes. */
const SLOTS = {
  cover: { column: "coverMediaId", type: "photo" },
  clip: { column: "featuredClipId", type: "audio" },
} as const;

/** The artist's chosen cover photo and clip (media ids), for the manager to mark them. */
export async function chosenProfileMedia(db: Queryable, artistId: string) {
  const [row] = await db
    .select({ coverId: artistProfiles.coverMediaId, clipId: artistProfiles.featuredClipId })
    .from(artistProfiles)
    .where(eq(artistProfiles.id, artistId));
  return { coverId: row?.coverId ?? null, clipId: row?.clipId ?? null };
}

const NOT_FOUND = "Media not found.";

/**
 * Makes a photo of the actor's own sessions their cover (or an audio file their featured clip),
 * or, with `chosen` false, stops showing it. Anything else (another artist's media, a video as
 * the cover, a photo as the clip) is "not found" and changes nothing; the database checks it too.
 */
export async function setProfileMedia(
  ctx: Pick<AppContext, "db">,
  actor: Actor,
  { slot, mediaId, chosen }: { slot: ProfileMediaSlot; mediaId: string; chosen: boolean },
): Promise<void> {
  const artistId = actor?.artistProfileId;
  if (!artistId || !isUuid(mediaId)) refuse("not_found", NOT_FOUND);
  const { column, type } = SLOTS[slot];
  await ctx.db.transaction(async (tx) => {
    const [own] = await tx
      .select({ id: sessionMedia.id })
      .from(sessionMedia)
      .where(
        and(
          eq(sessionMedia.id, mediaId),
          eq(sessionMedia.mediaType, type),
          inArray(sessionMedia.sessionId, ownSessionIds(tx, artistId)),
        ),
      );
    if (!own) refuse("not_found", NOT_FOUND);
    const target = artistProfiles[column];
    await tx
      .update(artistProfiles)
      .set({ [column]: chosen ? mediaId : null })
      // Clearing touches only the slot that still holds this media item.
      .where(and(eq(artistProfiles.id, artistId), chosen ? undefined : eq(target, mediaId)));
  });
}
