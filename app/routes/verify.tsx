import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import {
  type AgreementCheck,
  AgreementFormatError,
  agreementFileOf,
  checkAgreement,
} from "~/features/agreements/agreement-check";
import {
  AgreementCheckResult,
  type AgreementStanding,
} from "~/features/agreements/agreement-check-result";
import { agreementStatusOf } from "~/features/agreements/agreements.server";
import { checkUploadedCv } from "~/features/credentials/check-upload.server";
import { MAX_CV_UPLOAD_BYTES } from "~/features/credentials/credentials.constants";
import { CvCheckResult } from "~/features/credentials/cv-check-result";
import { didOf } from "~/features/credentials/did";
import { getIssuerDidDocument } from "~/features/credentials/issuance.server";
import type { CvCheck } from "~/features/credentials/verify.server";
import type { Actor } from "~/lib/actor";
import { publicPageHeaders } from "~/lib/cache-headers";
import type { AppContext } from "~/lib/context";
import { attempt, readForm, replyInvalid, replyOk } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { refuse } from "~/lib/problem";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { usePending } from "~/lib/use-pending";
import type { Route } from "./+types/verify";

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Check a performance CV or booking agreement",
    description:
      "Upload a GigLedger performance CV or booking agreement and see whether GigLedger signed it, whether it has been changed since, and what it says.",
  });

const MAX_MB = MAX_CV_UPLOAD_BYTES / 1024 / 1024;

/** Checking an agreement is one hash and one signature: 60 files per address per 10 minutes. */
const AGREEMENT_CHECK_LIMIT = { max: 60, windowMs: 10 * 60_000 };

type UploadCheck =
  | { kind: "cv"; check: CvCheck }
  | { kind: "agreement"; check: AgreementCheck; ourDid: string; standing: AgreementStanding };

/**
 * An agreement is checked here, against this site's own did.json (read from the database, never
 * fetched, and never another site's), and looked up only by its hash once that hash and its
 * signature hold. Anything else is a CV, checked in its worker (check-upload.server.ts).
 */
async function checkUpload(context: AppContext, viewer: Actor, file: File): Promise<UploadCheck> {
  const parsed =
    file.size > 0 && file.size <= MAX_CV_UPLOAD_BYTES ? agreementFileOf(await textOf(file)) : null;
  if (parsed === null) return { kind: "cv", check: await checkUploadedCv(context, viewer, file) };
  const limit = await hitRateLimit(
    context.db,
    `agreement-check:${context.clientIp}`,
    AGREEMENT_CHECK_LIMIT,
  );
  if (!limit.allowed)
    refuse("rate_limited", "Too many agreement checks from here. Please wait a few minutes.");
  const ourDid = didOf(context.env.appUrl);
  let check: AgreementCheck;
  try {
    check = await checkAgreement(parsed, {
      resolveDid: async (did) => (did === ourDid ? getIssuerDidDocument(context) : null),
    });
  } catch (error) {
    if (error instanceof AgreementFormatError) refuse("invalid", error.message);
    throw error;
  }
  const standing: AgreementStanding =
    check.intact && check.signatureValid
      ? ((await agreementStatusOf(context.db, check.sha256)) ?? "unknown")
      : "not_asked";
  return { kind: "agreement", check, ourDid, standing };
}

/** The file as UTF-8 text, or "" when it is not (then it is no agreement). */
async function textOf(file: File) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return "";
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  // The whole body is refused before it is read when it says it is too large.
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_CV_UPLOAD_BYTES + 64 * 1024)
    return replyInvalid({ file: `Files can be at most ${MAX_MB} MB.` });
  const viewer = await getCurrentUser(request, context);
  const form = await readForm(request);
  const file = form.get("file");
  if (!(file instanceof File)) return replyInvalid({ file: "Please choose a file." });
  return attempt(async () => replyOk(await checkUpload(context, viewer, file)));
}

export default function VerifyPage({ actionData }: Route.ComponentProps) {
  const pending = usePending();
  const error =
    actionData?.ok === false ? (actionData.fieldErrors?.file ?? actionData.formError) : undefined;
  const result = actionData?.ok ? actionData.value : undefined;
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:py-12">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Check a performance CV or booking agreement</h1>
        <p className="text-slate-700">
          Musicians on GigLedger can download their verified history as a signed CV, and both
          parties to a booking can download its signed agreement (agreement.json). Upload either
          here. For a CV you see, session by session, whether it is authentic, whether it has been
          revoked, and what it proves. For an agreement you see whether it is exactly what both
          parties accepted, whether GigLedger signed it, and whether it is still in force. Nothing
          you upload is kept.
        </p>
      </header>
      <Card as="section" aria-labelledby="upload-title">
        <h2 id="upload-title" className="text-lg font-semibold">
          Upload a CV or an agreement
        </h2>
        <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4">
          <div className="space-y-1">
            <label htmlFor="cv-file" className="block text-sm font-medium">
              CV file or agreement.json (JSON, at most {MAX_MB} MB)
            </label>
            <input
              id="cv-file"
              name="file"
              type="file"
              accept=".json,application/json"
              required
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "cv-file-error" : undefined}
              className="block w-full max-w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:text-brand-900"
            />
            {error ? (
              <p id="cv-file-error" className="text-sm text-red-700" role="alert">
                {error}
              </p>
            ) : null}
          </div>
          <Button type="submit" variant="primary">
            {pending ? "Checking..." : "Check CV or agreement"}
          </Button>
        </Form>
      </Card>
      {result?.kind === "cv" ? <CvCheckResult result={result.check} /> : null}
      {result?.kind === "agreement" ? (
        <AgreementCheckResult
          check={result.check}
          ourDid={result.ourDid}
          standing={result.standing}
        />
      ) : null}
      <section aria-labelledby="how-title" className="space-y-2 text-sm text-slate-700">
        <h2 id="how-title" className="text-base font-semibold text-slate-900">
          How the check works
        </h2>
        <p>
          Each session in a CV is an Open Badges 3.0 credential signed by GigLedger with an Ed25519
          key (Data Integrity, eddsa-rdfc-2022). Changing a single character of it breaks the
          signature. GigLedger's public keys are published at{" "}
          <a className="text-brand-700 underline" href="/.well-known/did.json">
            /.well-known/did.json
          </a>
          , and a revoked credential's bit is set in a public status list.
        </p>
        <p>
          A booking agreement is the offer both parties accepted, frozen when the second one
          accepted. GigLedger writes it as canonical JSON (RFC 8785), takes its SHA-256 hash and
          signs that hash with the same key. The check works out the hash again from the file,
          checks the signature with the key the file names, and checks that GigLedger publishes that
          key. Changing a single character of the agreement changes its hash. When the hash and the
          signature hold, this page also says whether GigLedger still has the agreement in force, or
          whether a later agreement replaced it or the booking was cancelled; it says nothing else
          about the booking.
        </p>
        <p>
          Anyone can check either without us too: <code>npm run verify-cv -- cv.json</code> (or{" "}
          <code>agreement.json</code>) in GigLedger's source.
        </p>
      </section>
    </main>
  );
}
