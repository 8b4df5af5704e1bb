import { Form, Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FormError } from "~/components/ui/field";
import {
  failedCalls,
  failedEvents,
  moneyToday,
  reconciliationRuns,
  retryCall,
  retryEvent,
} from "~/features/payments/desk.server";
import {
  addOperator,
  logOperatorAction,
  operatorLogOf,
  operatorsOf,
  removeOperator,
  requireOperator,
} from "~/features/problems/operators.server";
import { CATEGORY_WORDS, DECISION_WORDS } from "~/features/problems/problem-text";
import { problemQueue } from "~/features/problems/problems.server";
import { formatLongDate } from "~/lib/date-text";
import { formatShortWallClock, todayIn } from "~/lib/dates";
import { readForm, replyError, replyProblem } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { formatPaise } from "~/lib/money-text";
import { plural } from "~/lib/number-text";
import { isProblem } from "~/lib/problem";
import { redirectWithToast } from "~/lib/toast.server";
import { usePending } from "~/lib/use-pending";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Operator's desk", description: "GigLedger's operators." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireOperator(request, context);
  const now = context.clock.now();
  const tz = context.env.timeZone;
  const [queue, operators, log, today, calls, events, runs] = await Promise.all([
    problemQueue(context.db),
    operatorsOf(context.db),
    operatorLogOf(context.db, 30),
    moneyToday(context.db, now, tz),
    failedCalls(context.db),
    failedEvents(context.db),
    reconciliationRuns(context.db, 30),
  ]);
  const item = (p: (typeof queue.open)[number]) => ({
    id: p.id,
    bookingId: p.bookingId,
    artistName: p.artistName ?? "A deleted artist",
    eventDate: formatLongDate(p.eventDate),
    by: p.party,
    category: CATEGORY_WORDS[p.category],
    reportedOn: formatLongDate(todayIn(tz, p.reportedAt)),
    dueBy: formatLongDate(todayIn(tz, p.decisionDueAt)),
    overdue: !p.decidedAt && p.decisionDueAt < now,
    answered: p.answer !== null,
    decision: p.decision ? DECISION_WORDS[p.decision] : null,
  });
  return {
    me: user.email,
    open: queue.open.map(item),
    decided: queue.decided.map(item),
    operators,
    today: {
      day: formatLongDate(today.day),
      held: formatPaise(today.heldPaise),
      heldBookings: today.heldBookings,
      released: formatPaise(today.releasedTodayPaise),
      releasedBookings: today.releasedTodayBookings,
      due: today.dueToday.map((d) => ({
        bookingId: d.bookingId,
        at: formatShortWallClock(d.releaseAt, tz),
        heldByProblem: d.heldByProblem,
      })),
    },
    calls: calls.map((c) => ({
      ...c,
      createdAt: formatShortWallClock(c.createdAt, tz),
    })),
    events: events.map((e) => ({ ...e, receivedAt: formatShortWallClock(e.receivedAt, tz) })),
    runs: runs.map((r) => ({
      day: r.day,
      dayText: formatLongDate(r.day),
      difference: formatPaise(r.unexplainedPaise),
      clean: r.clean,
    })),
    month: todayIn(tz, now).slice(0, 7),
    log: log.map((l) => ({
      ...l,
      at: formatShortWallClock(l.at, tz),
      detail: JSON.stringify(l.detail),
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireOperator(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const by = { id: user.id, email: user.email };
  const at = context.clock.now();
  if (intent === "retryCall" || intent === "retryEvent") {
    const id = String(form.get("id") ?? "");
    const done = await context.db.transaction(async (tx) => {
      const retried = intent === "retryCall" ? await retryCall(tx, id) : await retryEvent(tx, id);
      if (retried)
        await logOperatorAction(tx, by, {
          action: intent === "retryCall" ? "payments.retry_call" : "payments.retry_event",
          target: intent === "retryCall" ? `command:${id}` : `event:${retried}`,
          at,
        });
      return retried;
    });
    if (!done)
      return replyError(
        404,
        "There is no such failed call or event (it may have been retried already).",
      );
    return redirectWithToast(
      "/admin",
      { title: "Retrying", description: "The job runs it again in a moment." },
      { status: 303 },
    );
  }
  const email = String(form.get("email") ?? "").trim();
  if (intent !== "addOperator" && intent !== "removeOperator")
    return replyError(400, "Unknown request.");
  if (!email || email.length > 320 || !email.includes("@"))
    return replyError(400, "Write the e-mail address of the account.");
  try {
    if (intent === "addOperator") await addOperator(context.db, by, email, at);
    else await removeOperator(context.db, by, email, at);
  } catch (error) {
    if (isProblem(error)) return replyProblem(error, { values: { email } });
    throw error;
  }
  return redirectWithToast(
    "/admin",
    {
      title: intent === "addOperator" ? "Operator added" : "Operator removed",
      description: email,
    },
    { status: 303 },
  );
}

export default function OperatorDesk({ loaderData, actionData }: Route.ComponentProps) {
  const busy = usePending();
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <h1 className="text-3xl font-bold">Operator's desk</h1>
        <p className="mt-2 text-slate-700">
          Signed in as {loaderData.me}. Every action here is logged with who and when.
        </p>
      </div>
      <Card as="section" aria-labelledby="queue-title">
        <h2 id="queue-title" className="text-lg font-semibold">
          Problems waiting for a decision ({loaderData.open.length})
        </h2>
        {loaderData.open.length === 0 ? (
          <p className="mt-2 text-slate-700">No problem report is waiting.</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-200">
            {loaderData.open.map((p) => (
              <li key={p.id} className="py-3">
                <Link
                  to={`/admin/problems/${p.id}`}
                  className="font-medium text-brand-700 underline"
                >
                  {p.category}
                </Link>
                <p className="text-sm text-slate-700">
                  Reported by the {p.by} on {p.reportedOn} · {p.artistName}, {p.eventDate} ·{" "}
                  {p.answered ? "answered" : "not answered yet"}
                </p>
                <p className={p.overdue ? "text-sm font-semibold text-red-700" : "text-sm"}>
                  {p.overdue ? `Overdue: was due by ${p.dueBy}` : `Decision due by ${p.dueBy}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {loaderData.decided.length > 0 ? (
        <Card as="section" aria-labelledby="decided-title">
          <h2 id="decided-title" className="text-lg font-semibold">
            Recently decided
          </h2>
          <ul className="mt-3 space-y-2 text-sm">
            {loaderData.decided.map((p) => (
              <li key={p.id}>
                <Link to={`/admin/problems/${p.id}`} className="text-brand-700 underline">
                  {p.category}
                </Link>{" "}
                ({p.artistName}, {p.eventDate}): {p.decision}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card as="section" aria-labelledby="money-title">
        <h2 id="money-title" className="text-lg font-semibold">
          Money today ({loaderData.today.day})
        </h2>
        <dl className="mt-3 grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
          <div className="rounded-lg bg-slate-50 p-3">
            <dt className="text-slate-600">Held for artists</dt>
            <dd className="font-semibold">
              {loaderData.today.held} · {plural(loaderData.today.heldBookings, "booking")}
            </dd>
          </div>
          <div className="rounded-lg bg-slate-50 p-3">
            <dt className="text-slate-600">Due for release today</dt>
            <dd className="font-semibold">{plural(loaderData.today.due.length, "booking")}</dd>
          </div>
          <div className="rounded-lg bg-slate-50 p-3">
            <dt className="text-slate-600">Released today</dt>
            <dd className="font-semibold">
              {loaderData.today.released} · {plural(loaderData.today.releasedBookings, "booking")}
            </dd>
          </div>
        </dl>
        {loaderData.today.due.length > 0 ? (
          <ul className="mt-3 space-y-1 text-sm">
            {loaderData.today.due.map((d) => (
              <li key={d.bookingId} className="[overflow-wrap:anywhere]">
                {d.at} · booking {d.bookingId}
                {d.heldByProblem ? " · held by a problem report" : ""}
              </li>
            ))}
          </ul>
        ) : null}
      </Card>
      <Card as="section" aria-labelledby="failed-title">
        <h2 id="failed-title" className="text-lg font-semibold">
          Failed provider calls and events
        </h2>
        {loaderData.calls.length === 0 && loaderData.events.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">Nothing failed.</p>
        ) : null}
        <ul className="mt-2 divide-y divide-slate-200 text-sm">
          {loaderData.calls.map((c) => (
            <li
              key={c.id}
              className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="[overflow-wrap:anywhere]">
                {c.kind} for booking {c.bookingId} ·{" "}
                {c.status === "needs_attention" ? "refused" : "failing"} after {c.attempts} attempts
                · {c.lastError ?? "no error kept"} ({c.createdAt})
              </span>
              <Form method="post">
                <input type="hidden" name="id" value={c.id} />
                <Button
                  type="submit"
                  name="intent"
                  value="retryCall"
                  variant="outline"
                  disabled={busy}
                >
                  Retry call
                </Button>
              </Form>
            </li>
          ))}
          {loaderData.events.map((e) => (
            <li
              key={e.id}
              className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="[overflow-wrap:anywhere]">
                {e.eventType} {e.eventId} ·{" "}
                {e.outcome ?? `not applied after ${e.attempts} attempts`} ({e.receivedAt})
              </span>
              <Form method="post">
                <input type="hidden" name="id" value={e.id} />
                <Button
                  type="submit"
                  name="intent"
                  value="retryEvent"
                  variant="outline"
                  disabled={busy}
                >
                  Apply again
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      </Card>
      <Card as="section" aria-labelledby="reconciliation-title">
        <h2 id="reconciliation-title" className="text-lg font-semibold">
          Reconciliation by day
        </h2>
        {loaderData.runs.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">
            No day reconciled yet: the daily job keeps each day's report from the next day on.
          </p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {loaderData.runs.map((r) => (
              <li key={r.day}>
                <Link to={`/admin/reconciliation/${r.day}`} className="text-brand-700 underline">
                  {r.dayText}
                </Link>
                : unexplained difference {r.difference}
                {r.clean ? "" : " · needs a look"}
              </li>
            ))}
          </ul>
        )}
        <Form
          method="get"
          action="/admin/accounting.csv"
          reloadDocument
          className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
        >
          <div>
            <Field
              label="Month for the accountant"
              name="month"
              type="month"
              defaultValue={loaderData.month}
              required
            />
          </div>
          <Button type="submit" variant="outline">
            Download commission, GST and TDS (CSV)
          </Button>
        </Form>
      </Card>
      <Card as="section" aria-labelledby="operators-title">
        <h2 id="operators-title" className="text-lg font-semibold">
          Operators
        </h2>
        <ul className="mt-2 text-sm">
          {loaderData.operators.map((o) => (
            <li key={o.id} className="break-words">
              {o.email}
            </li>
          ))}
        </ul>
        <FormError>{formError}</FormError>
        <Form method="post" className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="grow">
            <Field
              label="E-mail of an account"
              name="email"
              type="email"
              required
              autoComplete="off"
            />
          </div>
          <Button type="submit" name="intent" value="addOperator" disabled={busy}>
            Add operator
          </Button>
          <Button
            type="submit"
            name="intent"
            value="removeOperator"
            variant="outline"
            disabled={busy}
          >
            Remove operator
          </Button>
        </Form>
      </Card>
      <Card as="section" aria-labelledby="log-title">
        <h2 id="log-title" className="text-lg font-semibold">
          Operator log
        </h2>
        {loaderData.log.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">Nothing yet.</p>
        ) : (
          <ul className="mt-2 space-y-1 text-sm">
            {loaderData.log.map((l) => (
              <li key={l.id} className="break-words">
                {l.at} · {l.operatorEmail} · {l.action} · {l.target}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </main>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
