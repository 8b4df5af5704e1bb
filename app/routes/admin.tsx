import { Form, Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FormError } from "~/components/ui/field";
import {
  addOperator,
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
  const [queue, operators, log] = await Promise.all([
    problemQueue(context.db),
    operatorsOf(context.db),
    operatorLogOf(context.db, 30),
  ]);
  const now = context.clock.now();
  const tz = context.env.timeZone;
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
  const email = String(form.get("email") ?? "").trim();
  if (intent !== "addOperator" && intent !== "removeOperator")
    return replyError(400, "Unknown request.");
  if (!email || email.length > 320 || !email.includes("@"))
    return replyError(400, "Write the e-mail address of the account.");
  const by = { id: user.id, email: user.email };
  try {
    if (intent === "addOperator") await addOperator(context.db, by, email, context.clock.now());
    else await removeOperator(context.db, by, email, context.clock.now());
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
