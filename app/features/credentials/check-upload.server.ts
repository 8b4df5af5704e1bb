import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { refuse } from "~/lib/problem";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { MAX_CV_UPLOAD_BYTES } from "./credentials.constants";
import { didOf } from "./did";
import { getIssuerDidDocument, getStatusListDocument } from "./issuance.server";
import { type CvCheck, CvFormatError, checkCv } from "./verify.server";

type Ctx = Pick<AppContext, "db" | "env" | "clientIp">;

/** Checking costs real work (every proof): 30 files per address per 10 minutes. */
const CHECK_LIMIT = { max: 30, windowMs: 10 * 60_000 };

/**
 * Checks a CV file someone uploaded on /verify. Only GigLedger's own issuer key and status lists
 * are used, read from this database: a did.json snapshot inside an uploaded bundle could come
 * from anyone, and nothing named in an upload is ever fetched.
 */
export async function checkUploadedCv(ctx: Ctx, _viewer: Actor, file: File): Promise<CvCheck> {
  if (file.size === 0) refuse("invalid", "Please choose a CV file.");
  if (file.size > MAX_CV_UPLOAD_BYTES)
    refuse("invalid", `CV files can be at most ${MAX_CV_UPLOAD_BYTES / 1024 / 1024} MB.`);
  const limit = await hitRateLimit(ctx.db, `cv-check:${ctx.clientIp}`, CHECK_LIMIT);
  if (!limit.allowed)
    refuse("rate_limited", "Too many CV checks from here. Please wait a few minutes.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer()));
  } catch {
    refuse("invalid", "This file is not a CV: it is not JSON.");
  }
  const ourDid = didOf(ctx.env.appUrl);
  const statusPrefix = new URL("/credentials/status/", ctx.env.appUrl).href;
  try {
    return await checkCv(parsed, {
      resolveDid: async (did) => (did === ourDid ? getIssuerDidDocument(ctx) : null),
      loadStatusList: async (url) => {
        const n = url.startsWith(statusPrefix) ? url.slice(statusPrefix.length) : "";
        if (!/^\d{1,7}$/.test(n)) return null;
        const document = await getStatusListDocument(ctx, Number(n));
        return document ? (JSON.parse(document) as unknown) : null;
      },
    });
  } catch (error) {
    if (error instanceof CvFormatError) refuse("invalid", error.message);
    throw error;
  }
}
