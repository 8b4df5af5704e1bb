import { NotFound } from "~/components/layout/not-found";
import { loadDiagnostics } from "~/features/diagnostics/diagnostics.route.server";
import {
  AuthWidget,
  CheckedAt,
  DomainWidget,
  REFRESH_MS,
  ServicesWidget,
  StageWidget,
} from "~/features/diagnostics/diagnostics-view";
import { useIntervalRevalidation } from "~/features/diagnostics/use-interval-revalidation";
import type { Route } from "./+types/diagnostic";

export const meta: Route.MetaFunction = () => [
  { title: "Diagnostics | GigLedger" },
  { name: "robots", content: "noindex" },
];

export function loader({ request, context }: Route.LoaderArgs) {
  return loadDiagnostics(request, context);
}

export default function Diagnostic({ loaderData: d }: Route.ComponentProps) {
  useIntervalRevalidation(REFRESH_MS);
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <h1 className="text-3xl font-bold">Diagnostics</h1>
        <p className="mt-1 text-slate-600">
          How this GigLedger server is set up and whether its parts answer.
        </p>
        <CheckedAt d={d} />
      </div>
      <StageWidget d={d} />
      <ServicesWidget d={d} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <DomainWidget d={d} />
        <AuthWidget d={d} />
      </div>
    </main>
  );
}

export function ErrorBoundary() {
  return <NotFound />;
}
