import { Form, Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FormError } from "~/components/ui/field";
import { TextareaField } from "~/components/ui/textarea-field";
import { ledgerLinesOf } from "~/features/payments/ledger.server";
import { moneyViewOf } from "~/features/payments/money-view.server";
import { requireOperator } from "~/features/problems/operators.server";
import { ProblemFileList, problemFileViews } from "~/features/problems/problem-file-list";
import { problemFilesOf } from "~/features/problems/problem-files.server";
import {
  CATEGORY_WORDS,
  DECISION_WORDS,
  PROBLEM_DECISIONS,
  STATEMENT_MAX,
} from "~/features/problems/problem-text";
import {
  DecisionSchema,
  decideProblem,
  problemBookingOf,
  problemOf,
} from "~/features/problems/problems.server";
import { formatLongDate } from "~/lib/date-text";
import { formatShortWallClock, todayIn } from "~/lib/dates";
import { notFound, parseForm, readForm, replyProblem } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { formatPaise } from "~/lib/money-text";
import { isProblem } from "~/lib/problem";
import { redirectWithToast } from "~/lib/toast.server";
import { usePending } from "~/lib/use-pending";
import type { Route } from "./+types/admin.problems.$reportId";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "A problem report", description: "GigLedger's operators." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireOperator(request, context);
  const report = await problemOf(context.db, params.reportId);
  if (!report) notFound();
  const [booking, money, ledger, files] = await Promise.all([
    problemBookingOf(context.db, report.bookingId),
    moneyViewOf(context.db, report.bookingId, context.clock.now()),
    ledgerLinesOf(context.db, report.bookingId),
    problemFilesOf(context.db, [report.id]),
  ]);
  const tz = context.env.timeZone;
  const day = (at: Date) => formatLongDate(todayIn(tz, at));
  return {
    report: {
      id: report.id,
      bookingId: report.bookingId,
      by: report.party,
      category: CATEGORY_WORDS[report.category],
      statement: report.statement,
      reportedOn: day(report.reportedAt),
      dueBy: day(report.decisionDueAt),
      answer: report.answer,
      decision: report.decision ? DECISION_WORDS[report.decision] : null,
      refund: report.refundPaise ? formatPaise(report.refundPaise) : null,
      reason: report.decisionReason,
    },
    files: problemFileViews(files),
    booking: booking
      ? { status: booking.status, eventDate: formatLongDate(booking.eventDate) }
      : null,
    paid: money ? formatPaise(money.paidPaise - money.refundedPaise) : formatPaise(0),
    events: (money?.events ?? []).map((e) => ({
      kind: e.kind,
      amount: e.amountPaise === null ? null : formatPaise(e.amountPaise),
      at: formatShortWallClock(e.at, tz),
    })),
    ledger: ledger.map((l) => ({
      ...l,
      at: formatShortWallClock(l.at, tz),
      amount: formatPaise(l.amountPaise),
    })),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireOperator(request, context);
  const form = await readForm(request);
  const parsed = parseForm(DecisionSchema, form);
  if (!parsed.ok) return parsed.reply;
  try {
    await decideProblem(context, { id: user.id, email: user.email }, params.reportId, parsed.data);
  } catch (error) {
    if (isProblem(error)) return replyProblem(error, { values: parsed.values });
    throw error;
  }
  return redirectWithToast(
    `/admin/problems/${params.reportId}`,
    { title: "Decided", description: "Both parties were told, with your reason." },
    { status: 303 },
  );
}

export default function ProblemDecision({ loaderData, actionData }: Route.ComponentProps) {
  const busy = usePending();
  const errors = actionData && "fieldErrors" in actionData ? (actionData.fieldErrors ?? {}) : {};
  const values = actionData && "values" in actionData ? (actionData.values ?? {}) : {};
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  const { report } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <Link to="/admin" className="text-sm text-brand-700 underline">
          Back to the desk
        </Link>
        <h1 className="mt-2 text-3xl font-bold">{report.category}</h1>
        <p className="mt-2 text-slate-700">
          Reported by the {report.by} on {report.reportedOn}; a decision is due by {report.dueBy}.
          Booking for {loaderData.booking?.eventDate} ({loaderData.booking?.status}); the client has
          paid {loaderData.paid} and not had back.
        </p>
      </div>
      <Card as="section" aria-labelledby="statements-title">
        <h2 id="statements-title" className="text-lg font-semibold">
          Both sides
        </h2>
        <h3 className="mt-3 font-medium">The {report.by}</h3>
        <p className="whitespace-pre-line break-words">{report.statement}</p>
        <h3 className="mt-3 font-medium">The answer</h3>
        <p className="whitespace-pre-line break-words">{report.answer ?? "Not answered yet."}</p>
        {loaderData.files.length > 0 ? (
          <>
            <h3 className="mt-3 font-medium">Files</h3>
            <ProblemFileList
              bookingId={report.bookingId}
              files={loaderData.files}
              className="space-y-1 text-sm"
            />
          </>
        ) : null}
      </Card>
      {report.decision ? (
        <Card as="section" aria-labelledby="decision-title">
          <h2 id="decision-title" className="text-lg font-semibold">
            Decision
          </h2>
          <p className="mt-2">
            {report.decision}
            {report.refund ? ` (${report.refund} refunded)` : ""}.
          </p>
          <p className="mt-1 text-sm">The reason: {report.reason}</p>
        </Card>
      ) : (
        <Card as="section" aria-labelledby="decide-title">
          <h2 id="decide-title" className="text-lg font-semibold">
            Decide
          </h2>
          <FormError>{formError}</FormError>
          <Form method="post" className="mt-3 space-y-4">
            <fieldset>
              <legend className="font-medium">Decision</legend>
              {PROBLEM_DECISIONS.map((decision) => (
                <label key={decision} className="mt-2 flex items-center gap-2">
                  <input
                    type="radio"
                    name="decision"
                    value={decision}
                    required
                    defaultChecked={values.decision === decision}
                  />
                  {DECISION_WORDS[decision]}
                </label>
              ))}
              {errors.decision ? (
                <p className="mt-1 text-sm text-red-700">{errors.decision}</p>
              ) : null}
            </fieldset>
            <Field
              label="Amount to refund, for a partial refund (₹)"
              name="refundRupees"
              inputMode="decimal"
              defaultValue={values.refundRupees}
              error={errors.refundRupees}
            />
            <TextareaField
              label="The reason both parties will read"
              name="reason"
              rows={4}
              maxLength={STATEMENT_MAX}
              required
              defaultValue={values.reason}
              error={errors.reason}
            />
            <Button type="submit" disabled={busy}>
              Decide
            </Button>
          </Form>
        </Card>
      )}
      <Card as="section" aria-labelledby="timeline-title">
        <h2 id="timeline-title" className="text-lg font-semibold">
          Money timeline
        </h2>
        <ul className="mt-2 space-y-1 text-sm">
          {loaderData.events.map((e) => (
            <li key={`${e.kind}-${e.at}-${e.amount}`}>
              {e.at} · {e.kind}
              {e.amount ? ` · ${e.amount}` : ""}
            </li>
          ))}
        </ul>
      </Card>
      <Card as="section" aria-labelledby="ledger-title">
        <h2 id="ledger-title" className="text-lg font-semibold">
          Ledger lines
        </h2>
        <ul className="mt-2 divide-y divide-slate-200 text-sm">
          {loaderData.ledger.map((l) => (
            <li key={`${l.key}-${l.from}-${l.to}`} className="py-2 [overflow-wrap:anywhere]">
              <p>
                <span className="font-medium">{l.amount}</span> · {l.at} · {l.key}
              </p>
              <p className="text-slate-700">
                {l.from} → {l.to}
              </p>
            </li>
          ))}
        </ul>
      </Card>
    </main>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
