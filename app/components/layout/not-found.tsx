import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";

export function NotFound() {
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-6xl font-bold text-brand-600">404</p>
      <h1 className="mt-4 text-2xl font-semibold">Oops! Page not found</h1>
      <p className="mt-2 text-slate-600">
        The page you were looking for does not exist or has moved.
      </p>
      <Link to="/" className={buttonClasses("primary", "md", "mt-8")}>
        Return to Home
      </Link>
    </main>
  );
}
