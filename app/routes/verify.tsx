import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { checkUploadedCv } from "~/features/credentials/check-upload.server";
import { MAX_CV_UPLOAD_BYTES } from "~/features/credentials/credentials.constants";
import { CvCheckResult } from "~/features/credentials/cv-check-result";
import { publicPageHeaders } from "~/lib/cache-headers";
import { attempt, readForm, replyInvalid, replyOk } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { usePending } from "~/lib/use-pending";
import type { Route } from "./+types/verify";

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Check a performance CV",
    description:
      "Upload a GigLedger performance CV and see, credential by credential, whether it is authentic, revoked, and what it proves.",
  });

const MAX_MB = MAX_CV_UPLOAD_BYTES / 1024 / 1024;

export async function action({ request, context }: Route.ActionArgs) {
  // The whole body is refused before it is read when it says it is too large.
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_CV_UPLOAD_BYTES + 64 * 1024)
    return replyInvalid({ file: `CV files can be at most ${MAX_MB} MB.` });
  const viewer = await getCurrentUser(request, context);
  const form = await readForm(request);
  const file = form.get("file");
  if (!(file instanceof File)) return replyInvalid({ file: "Please choose a CV file." });
  return attempt(async () => replyOk(await checkUploadedCv(context, viewer, file)));
}

export default function VerifyPage({ actionData }: Route.ComponentProps) {
  const pending = usePending();
  const error =
    actionData?.ok === false ? (actionData.fieldErrors?.file ?? actionData.formError) : undefined;
  const result = actionData?.ok ? actionData.value : undefined;
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:py-12">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Check a performance CV</h1>
        <p className="text-slate-700">
          Musicians on GigLedger can download their verified history as a signed CV. Upload one here
          (the CV file or the offline bundle) to see, session by session, whether it is authentic,
          whether it has been revoked, and what it proves. Nothing you upload is kept.
        </p>
      </header>
      <Card as="section" aria-labelledby="upload-title">
        <h2 id="upload-title" className="text-lg font-semibold">
          Upload a CV
        </h2>
        <Form method="post" encType="multipart/form-data" className="mt-4 space-y-4">
          <div className="space-y-1">
            <label htmlFor="cv-file" className="block text-sm font-medium">
              CV file (JSON, at most {MAX_MB} MB)
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
            {pending ? "Checking..." : "Check CV"}
          </Button>
        </Form>
      </Card>
      {result ? <CvCheckResult result={result} /> : null}
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
          , and a revoked credential's bit is set in a public status list. Anyone can check a CV
          without us too: <code>npm run verify-cv -- cv.json</code> in GigLedger's source.
        </p>
      </section>
    </main>
  );
}
