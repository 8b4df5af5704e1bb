import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";

/**
 * The layout of every error and "not found" page: an optional big status code, a heading, a
 * plain-words message and the ways on (by default, back home).
 */
export function ErrorPage({
  title,
  code,
  heading,
  message,
  actions,
}: {
  /** The tab's title, when the page's own meta cannot give it (an error boundary). */
  title?: string;
  code?: string;
  heading: string;
  message: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      {title ? <title>{`${title} | GigLedger`}</title> : null}
      {code ? <p className="mb-4 text-6xl font-bold text-brand-600">{code}</p> : null}
      <h1 className="text-2xl font-semibold">{heading}</h1>
      <p className="mt-2 text-slate-600">{message}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {actions ?? (
          <Link to="/" className={buttonClasses("primary", "md")}>
            Return to Home
          </Link>
        )}
      </div>
    </main>
  );
}
