import { useLocation } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { loadDiagnostics } from "~/features/diagnostics/diagnostics.route.server";
import {
  DIAGNOSTIC_PAGES,
  DiagnosticsPage,
  diagnosticsMeta,
} from "~/features/diagnostics/diagnostics-view";
import type { Route } from "./+types/diagnostic";

// One module, two addresses (app/routes.ts): /diagnostic shows everything, /domain-diagnostic
// the part about the public address, HTTPS and sign-in.
const pageFor = (pathname: string) =>
  pathname.replace(/\/$/, "") === "/domain-diagnostic"
    ? DIAGNOSTIC_PAGES.domain
    : DIAGNOSTIC_PAGES.full;

export const meta: Route.MetaFunction = ({ location }) =>
  diagnosticsMeta(pageFor(location.pathname));

export const loader = ({ request, context }: Route.LoaderArgs) => loadDiagnostics(request, context);

export default function Diagnostic({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  return <DiagnosticsPage page={pageFor(pathname)} d={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
