import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { NotFound } from "./not-found";

type NotFoundCopy = { title: string; message: string; actions?: ReactNode };

/**
 * The one error page of every route. It answers by status: a 404 shows the route's own "not
 * found" words (or the generic page); anything else is "Something went wrong" with a way to
 * try again and a way home, never a misleading "not found".
 */
export function RouteErrorBoundary({
  error,
  notFound,
}: {
  error: unknown;
  notFound?: NotFoundCopy;
}) {
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (status === 404) {
    if (!notFound) return <NotFound />;
    return (
      <main
        id="main"
        className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center"
      >
        <title>{`${notFound.title} | GigLedger`}</title>
        <h1 className="text-2xl font-semibold">{notFound.title}</h1>
        <p className="mt-2 text-slate-600">{notFound.message}</p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          {notFound.actions ?? (
            <Link to="/" className={buttonClasses("primary", "md")}>
              Return to Home
            </Link>
          )}
        </div>
      </main>
    );
  }
  const clientError = status >= 400 && status < 500;
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>
        {clientError ? "Request refused | GigLedger" : "Something went wrong | GigLedger"}
      </title>
      <h1 className="text-2xl font-semibold">
        {clientError ? "We couldn't do that" : "Something went wrong"}
      </h1>
      <p className="mt-2 text-slate-600">
        {clientError
          ? (problemMessage(error) ??
            "The request could not be accepted. Please go back and try again.")
          : "We hit an unexpected problem and have been notified. Please try again in a moment."}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <a href={location.pathname + location.search} className={buttonClasses("outline", "md")}>
          Try again
        </a>
        <Link to="/" className={buttonClasses("primary", "md")}>
          Return to Home
        </Link>
      </div>
    </main>
  );
}

function problemMessage(error: unknown): string | undefined {
  if (!isRouteErrorResponse(error)) return undefined;
  const body = error.data as { formError?: unknown } | null;
  return typeof body?.formError === "string" ? body.formError : undefined;
}
