import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { IsolatedWorkFailed, type IsolationLimits, runIsolated } from "~/lib/isolated.server";
import { refuse } from "~/lib/problem";
import { hitRateLimit } from "~/lib/rate-limit.server";
import type { CheckCvInput, CheckCvOutput } from "./check-cv.worker";
import { MAX_CV_UPLOAD_BYTES } from "./credentials.constants";
import { didOf } from "./did";
import { getIssuerDidDocument, getStatusListDocument } from "./issuance.server";
import type { CvCheck } from "./verify.server";

type Ctx = Pick<AppContext, "db" | "env" | "clientIp" | "logger">;

/** Checking costs real work (every proof): 30 files per address per 10 minutes. */
const CHECK_LIMIT = { max: 30, windowMs: 10 * 60_000 };

/**
 * A CV of 600 credentials (the most checked) takes about 16 s on this project's machine; the
 * heap it needs is under 200 MB. Past either, the worker is stopped (decision 037).
 */
const CV_CHECK_LIMITS: IsolationLimits = { timeoutMs: 45_000, memoryMb: 512 };

const CHECK_TASK = new URL("./check-cv.worker.ts", import.meta.url);

const OVER_LIMITS =
  "This file could not be checked: it takes far more work than any CV GigLedger signs. Download the CV again from the artist's profile.";

/**
 * Checks a CV file someone uploaded on /verify. Only GigLedger's own issuer key and status lists
 * are used, read from this database: a did.json snapshot inside an uploaded bundle could come
 * from anyone, and nothing named in an upload is ever fetched. The file is parsed and checked in
 * a worker with time and memory limits (`runIsolated`), so no upload can stop the server.
 */
export async function checkUploadedCv(
  ctx: Ctx,
  _viewer: Actor,
  file: File,
  limits: IsolationLimits = CV_CHECK_LIMITS,
): Promise<CvCheck> {
  if (file.size === 0) refuse("invalid", "Please choose a CV file.");
  if (file.size > MAX_CV_UPLOAD_BYTES)
    refuse("invalid", `CV files can be at most ${MAX_CV_UPLOAD_BYTES / 1024 / 1024} MB.`);
  const limit = await hitRateLimit(ctx.db, `cv-check:${ctx.clientIp}`, CHECK_LIMIT);
  if (!limit.allowed)
    refuse("rate_limited", "Too many CV checks from here. Please wait a few minutes.");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    refuse("invalid", "This file is not a CV: it is not JSON.");
  }
  const ourDid = didOf(ctx.env.appUrl);
  const statusPrefix = new URL("/credentials/status/", ctx.env.appUrl).href;
  const input: CheckCvInput = { text, ourDid, didDocument: await getIssuerDidDocument(ctx) };
  const statusList = async (url: string) => {
    const n =
      typeof url === "string" && url.startsWith(statusPrefix) ? url.slice(statusPrefix.length) : "";
    if (!/^\d{1,7}$/.test(n)) return null;
    const document = await getStatusListDocument(ctx, Number(n));
    return document ? (JSON.parse(document) as unknown) : null;
  };
  let output: CheckCvOutput;
  try {
    output = await runIsolated<CheckCvOutput>(CHECK_TASK, input, limits, { statusList });
  } catch (error) {
    if (!(error instanceof IsolatedWorkFailed)) throw error;
    if (error.reason === "busy")
      refuse("rate_limited", "Many CVs are being checked right now. Please try again in a minute.");
    if (error.reason === "crashed") ctx.logger.error({ err: error }, "CV check worker failed");
    else ctx.logger.warn({ reason: error.reason }, "CV check stopped at its limits");
    refuse("invalid", OVER_LIMITS);
  }
  if (!output.ok) refuse("invalid", output.formatError);
  return output.check;
}
