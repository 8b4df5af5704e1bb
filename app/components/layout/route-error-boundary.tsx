import type { ReactNode } from "react";
import { isRouteErrorResponse, Link, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { ErrorPage } from "./error-page";
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
      <ErrorPage
        title={notFound.title}
        heading={notFound.title}
        message={notFound.message}
        actions={notFound.actions}
      />
    );
  }
  const clientError = status >= 400 && status < 500;
  return (
    <ErrorPage
      title={clientError ? "Request refused" : "Something went wrong"}
      heading={clientError ? "We couldn't do that" : "Something went wrong"}
      message={
        clientError
          ? (problemMessage(error) ??
            "The request could not be accepted. Please go back and try again.")
          : "We hit an unexpected problem and have been notified. Please try again in a moment."
      }
      actions={
        <>
          <a href={location.pathname + location.search} className={buttonClasses("outline", "md")}>
            Try again
          </a>
          <Link to="/" className={buttonClasses("primary", "md")}>
            Return to Home
          </Link>
        </>
      }
    />
  );
}

function problemMessage(error: unknown): string | undefined {
  if (!isRouteErrorResponse(error)) return undefined;
  const body = error.data as { formError?: unknown } | null;
  return typeof body?.formError === "string" ? body.formError : undefined;
}
