import { Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { reconciliationRunOf } from "~/features/payments/desk.server";
import { requireOperator } from "~/features/problems/operators.server";
import { formatLongDate } from "~/lib/date-text";
import { notFound } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/admin.reconciliation.$day";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Reconciliation", description: "A day's reconciliation report." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireOperator(request, context);
  const report = await reconciliationRunOf(context.db, params.day);
  if (!report) notFound();
  return { day: params.day, report };
}

/** Nothing is posted here; to anyone but an operator the address does not exist (404). */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(request, context);
  return new Response("Nothing is posted here.\n", { status: 405 });
}

export default function ReconciliationDay({ loaderData }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-4 px-4 py-8 sm:py-12">
      <Link to="/admin" className="text-sm text-brand-700 underline">
        Back to the desk
      </Link>
      <h1 className="text-3xl font-bold">Reconciliation of {formatLongDate(loaderData.day)}</h1>
      <pre className="whitespace-pre-wrap rounded-lg bg-slate-50 p-4 text-sm [overflow-wrap:anywhere]">
        {loaderData.report}
      </pre>
    </main>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
