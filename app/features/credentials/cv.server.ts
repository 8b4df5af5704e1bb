import { eq } from "drizzle-orm";
import { renderSVG } from "uqr";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { artistProfiles, credentialPresentations } from "~db/schema";
import { CV_BUNDLE_TYPE } from "./credentials.constants";
import { getIssuerDidDocument } from "./issuance.server";

type Ctx = Pick<AppContext, "db" | "env">;

const SLUG = /^[a-z0-9-]{1,200}$/;

async function artistOf(ctx: Ctx, idOrSlug: string) {
  const slug = idOrSlug.toLowerCase();
  const where = isUuid(idOrSlug)
    ? eq(artistProfiles.id, idOrSlug)
    : SLUG.test(slug)
      ? eq(artistProfiles.slug, slug)
      : null;
  if (!where) return null;
  const [row] = await ctx.db
    .select({ id: artistProfiles.id, slug: artistProfiles.slug })
    .from(artistProfiles)
    .where(where);
  return row ?? null;
}

type ArtistCv = {
  slug: string;
  credentialCount: number;
  /** The signed JSON, or (with `gzip`) its gzipped bytes, compressed once when it was signed. */
  body: string | Uint8Array<ArrayBuffer>;
  gzipped: boolean;
  updatedAt: Date;
};

/**
 * An artist's signed CV exactly as the worker stored it (never signed per request); null when
 * there is no such artist or nothing of theirs is verified yet. CVs are public.
 */
export async function getArtistCv(
  ctx: Ctx,
  _viewer: Actor,
  input: { idOrSlug: string; gzip?: boolean },
): Promise<ArtistCv | null> {
  const artist = await artistOf(ctx, input.idOrSlug);
  if (!artist) return null;
  const [row] = await ctx.db
    .select({
      credentialCount: credentialPresentations.credentialCount,
      body: input.gzip ? credentialPresentations.documentGzip : credentialPresentations.document,
      updatedAt: credentialPresentations.updatedAt,
    })
    .from(credentialPresentations)
    .where(eq(credentialPresentations.artistProfileId, artist.id));
  if (!row) return null;
  const gzipped = Boolean(input.gzip);
  return {
    slug: artist.slug,
    credentialCount: row.credentialCount,
    body: gzipped ? new Uint8Array(Buffer.from(row.body, "base64")) : row.body,
    gzipped,
    updatedAt: row.updatedAt,
  };
}

/** How many signed credentials the artist's CV holds (0 without a CV): the profile's control. */
export async function getCvSummary(ctx: Ctx, _viewer: Actor, artistId: string) {
  const [row] = await ctx.db
    .select({ count: credentialPresentations.credentialCount })
    .from(credentialPresentations)
    .where(eq(credentialPresentations.artistProfileId, artistId));
  return { credentialCount: row?.count ?? 0 };
}

/** The CV with a snapshot of the issuer's did.json, so it can be checked with no network. */
export async function getCvBundle(ctx: Ctx, viewer: Actor, idOrSlug: string) {
  const cv = await getArtistCv(ctx, viewer, { idOrSlug });
  if (!cv || typeof cv.body !== "string") return null;
  const didDocument = await getIssuerDidDocument(ctx);
  const bundle = {
    type: CV_BUNDLE_TYPE,
    description:
      "A GigLedger performance CV with a snapshot of its issuer's did.json (taken when downloaded), so its proofs can be checked offline: npm run verify-cv -- <this file>, or upload it at /verify.",
    snapshotTakenAt: new Date().toISOString(),
    presentation: JSON.parse(cv.body) as unknown,
    didDocuments: [didDocument],
  };
  return { slug: cv.slug, json: JSON.stringify(bundle, null, 2) };
}

/** A QR code (SVG) leading to the artist's public profile; null for an unknown artist. */
export async function getProfileQrSvg(ctx: Ctx, _viewer: Actor, idOrSlug: string) {
  const artist = await artistOf(ctx, idOrSlug);
  if (!artist) return null;
  const url = new URL(`/artist/${artist.slug}`, ctx.env.appUrl).href;
  return renderSVG(url, { ecc: "M", border: 2, pixelSize: 8 });
}
