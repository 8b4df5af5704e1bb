import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { loadDiagnostics } from "~/features/diagnostics/diagnostics.route.server";
import {
  DIAGNOSTIC_PAGES,
  DiagnosticsPage,
  diagnosticsMeta,
} from "~/features/diagnostics/diagnostics-view";
import type { Route } from "./+types/diagnostic";

// One page with two addresses: this one shows everything, /domain-diagnostic a part of it.
const page = DIAGNOSTIC_PAGES.full;

export const meta: Route.MetaFunction = () => diagnosticsMeta(page);

export const loader = ({ request, context }: Route.LoaderArgs) => loadDiagnostics(request, context);

export default function Diagnostic({ loaderData }: Route.ComponentProps) {
  return <DiagnosticsPage page={page} d={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
