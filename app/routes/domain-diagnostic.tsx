import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { loadDiagnostics } from "~/features/diagnostics/diagnostics.route.server";
import {
  DIAGNOSTIC_PAGES,
  DiagnosticsPage,
  diagnosticsMeta,
} from "~/features/diagnostics/diagnostics-view";
import type { Route } from "./+types/domain-diagnostic";

// The diagnostic page narrowed to the public address, HTTPS and sign-in (see diagnostic.tsx).
const page = DIAGNOSTIC_PAGES.domain;

export const meta: Route.MetaFunction = () => diagnosticsMeta(page);

export const loader = ({ request, context }: Route.LoaderArgs) => loadDiagnostics(request, context);

export default function DomainDiagnostic({ loaderData }: Route.ComponentProps) {
  return <DiagnosticsPage page={page} d={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
