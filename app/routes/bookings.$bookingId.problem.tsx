import { Form, Link } from "react-router";
import type { z } from "zod";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormError } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { TextareaField } from "~/components/ui/textarea-field";
import { requireUser } from "~/features/accounts/accounts.server";
import { ProblemFileList, problemFileViews } from "~/features/problems/problem-file-list";
import {
  problemFilesOf,
  putProblemFiles,
  readProblemFiles,
} from "~/features/problems/problem-files.server";
import {
  ACCEPTED_PROBLEM_FILES,
  CATEGORY_WORDS,
  DECISION_WORDS,
  PROBLEM_CATEGORIES,
  STATEMENT_MAX,
} from "~/features/problems/problem-text";
import {
  AnswerSchema,
  answerProblem,
  partyOf,
  problemBookingOf,
  problemsOf,
  ReportSchema,
  reportProblem,
  reportWindow,
} from "~/features/problems/problems.server";
import { formatLongDate } from "~/lib/date-text";
import { todayIn } from "~/lib/dates";
import {
  notFound,
  parseForm,
  readForm,
  replyError,
  replyInvalid,
  replyProblem,
} from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { formatPaise } from "~/lib/money-text";
import { isProblem } from "~/lib/problem";
import { redirectWithToast } from "~/lib/toast.server";
import { usePending } from "~/lib/use-pending";
import type { Route } from "./+types/bookings.$bookingId.problem";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Report a problem", description: "A problem with a booking." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const booking = await problemBookingOf(context.db, params.bookingId);
  const party = booking ? partyOf(user, booking) : null;
  if (!booking || !party) notFound();
  const reports = await problemsOf(context.db, booking.id);
  const files = await problemFilesOf(
    context.db,
    reports.map((r) => r.id),
  );
  const day = (at: Date) => formatLongDate(todayIn(context.env.timeZone, at));
  const window = reportWindow(booking, context.clock.now());
  return {
    bookingId: booking.id,
    eventDate: booking.eventDate,
    party,
    window: window.open ? null : window.why,
    mine: reports.some((r) => r.party === party),
    reports: reports.map((r) => ({
      id: r.id,
      byMe: r.party === party,
      by: r.party,
      category: CATEGORY_WORDS[r.category],
      statement: r.statement,
      reportedOn: day(r.reportedAt),
      dueBy: day(r.decisionDueAt),
      answer: r.answer,
      answeredOn: r.answeredAt ? day(r.answeredAt) : null,
      decision: r.decision ? DECISION_WORDS[r.decision] : null,
      refund: r.refundPaise ? formatPaise(r.refundPaise) : null,
      reason: r.decisionReason,
      decidedOn: r.decidedAt ? day(r.decidedAt) : null,
      files: problemFileViews(files.filter((f) => f.reportId === r.id)),
    })),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "report" && intent !== "answer") return replyError(400, "Unknown request.");
  const parsed =
    intent === "report" ? parseForm(ReportSchema, form) : parseForm(AnswerSchema, form);
  if (!parsed.ok) return parsed.reply;
  const uploads = await readProblemFiles(form);
  if (!uploads.ok) return replyInvalid({ files: uploads.message }, parsed.values);
  const stored = await putProblemFiles(context.storage, uploads.files);
  try {
    if (intent === "report") {
      await reportProblem(
        context,
        user,
        params.bookingId,
        parsed.data as z.infer<typeof ReportSchema>,
        stored,
      );
    } else {
      await answerProblem(
        context,
        user,
        String(form.get("reportId") ?? ""),
        parsed.data as z.infer<typeof AnswerSchema>,
        stored,
      );
    }
  } catch (error) {
    // Refused: the files it brought are not kept.
    for (const file of stored) await context.storage.delete(file.key).catch(() => {});
    if (isProblem(error)) return replyProblem(error, { values: parsed.values });
    throw error;
  }
  return redirectWithToast(
    `/bookings/${params.bookingId}/problem`,
    intent === "report"
      ? {
          title: "Problem reported",
          description: "The payout is on hold. GigLedger decides within 7 days and tells you both.",
        }
      : { title: "Answer sent", description: "GigLedger reads both sides before deciding." },
    { status: 303 },
  );
}

export default function ProblemPage({ loaderData, actionData }: Route.ComponentProps) {
  const busy = usePending();
  const errors = actionData && "fieldErrors" in actionData ? (actionData.fieldErrors ?? {}) : {};
  const values = actionData && "values" in actionData ? (actionData.values ?? {}) : {};
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  const { reports } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-2xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <Link to={`/bookings/${loaderData.bookingId}`} className="text-sm text-brand-700 underline">
          Back to the booking
        </Link>
        <h1 className="mt-2 text-3xl font-bold">Problems with this booking</h1>
        <p className="mt-2 text-slate-700">
          The booking for {formatLongDate(loaderData.eventDate)}. While a problem report waits for a
          decision, the artist's payout stays on hold. GigLedger decides within 7 days (at most 30),
          with a reason you both read.
        </p>
      </div>
      <FormError>{formError}</FormError>
      {reports.map((report) => (
        <Card as="section" key={report.id} aria-labelledby={`report-${report.id}`}>
          <h2 id={`report-${report.id}`} className="text-lg font-semibold">
            {report.byMe ? "Your report" : `The ${report.by}'s report`}: {report.category}
          </h2>
          <p
            className={
              report.decision
                ? "mt-1 text-sm text-slate-700"
                : "mt-1 text-sm font-medium text-amber-800"
            }
          >
            {report.decision
              ? `Decided on ${report.decidedOn}: ${report.decision}${report.refund ? ` (${report.refund} refunded)` : ""}.`
              : `On hold: a problem was reported on ${report.reportedOn}; a decision is due by ${report.dueBy}.`}
          </p>
          <p className="mt-3 whitespace-pre-line break-words">{report.statement}</p>
          {report.answer ? (
            <div className="mt-3 border-l-4 border-slate-200 pl-3">
              <p className="text-sm font-medium text-slate-700">
                {report.byMe ? "The answer" : "Your answer"} ({report.answeredOn})
              </p>
              <p className="whitespace-pre-line break-words">{report.answer}</p>
            </div>
          ) : null}
          <ProblemFileList bookingId={loaderData.bookingId} files={report.files} />
          {report.reason ? (
            <p className="mt-3 text-sm">
              <span className="font-medium">GigLedger's reason:</span> {report.reason}
            </p>
          ) : null}
          {!report.byMe && !report.answer && !report.decision ? (
            <Form method="post" encType="multipart/form-data" className="mt-4 space-y-3">
              <input type="hidden" name="reportId" value={report.id} />
              <TextareaField
                label="Your answer (once)"
                name="answer"
                rows={4}
                maxLength={STATEMENT_MAX}
                required
                defaultValue={values.answer}
                error={errors.answer}
              />
              <FilesInput error={errors.files} />
              <Button type="submit" name="intent" value="answer" disabled={busy}>
                Send answer
              </Button>
            </Form>
          ) : null}
        </Card>
      ))}
      {loaderData.mine ? null : loaderData.window ? (
        <p className="text-slate-700">{loaderData.window}</p>
      ) : (
        <Card as="section" aria-labelledby="report-title">
          <h2 id="report-title" className="text-lg font-semibold">
            Report a problem
          </h2>
          <Form method="post" encType="multipart/form-data" className="mt-3 space-y-4">
            <SelectField
              label="What went wrong?"
              name="category"
              required
              defaultValue={values.category ?? ""}
              error={errors.category}
            >
              <option value="" disabled>
                Choose one
              </option>
              {PROBLEM_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {CATEGORY_WORDS[category]}
                </option>
              ))}
            </SelectField>
            <TextareaField
              label="What happened"
              name="statement"
              rows={6}
              maxLength={STATEMENT_MAX}
              required
              hint="Times, what was agreed and what was not. The other party reads it and may answer once."
              defaultValue={values.statement}
              error={errors.statement}
            />
            <FilesInput error={errors.files} />
            <Button type="submit" name="intent" value="report" disabled={busy}>
              Report the problem
            </Button>
          </Form>
        </Card>
      )}
    </main>
  );
}

/** Photos, sounds or a PDF: up to three, 5 MB together (checked again on the server). */
function FilesInput({ error }: { error?: string }) {
  return (
    <div>
      <label htmlFor="problem-files" className="block text-sm font-medium">
        Files (optional)
      </label>
      <input
        id="problem-files"
        type="file"
        name="files"
        multiple
        accept={ACCEPTED_PROBLEM_FILES}
        aria-describedby="problem-files-hint"
        aria-invalid={error ? true : undefined}
        className="mt-1 block w-full text-sm"
      />
      <p id="problem-files-hint" className="mt-1 text-sm text-slate-600">
        Up to 3 photos, sounds or PDFs, 5 MB together. Each is kept with its SHA-256 fingerprint.
      </p>
      {error ? <p className="mt-1 text-sm text-red-700">{error}</p> : null}
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
