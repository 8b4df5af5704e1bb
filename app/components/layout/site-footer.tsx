import { Link } from "react-router";

/** The footer of every page: server markup, drawn by the root loader (decision 022). */
export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-3 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <p>© {year} GigLedger. All rights reserved.</p>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-5 gap-y-2">
          <Link to="/discover" className="hover:text-slate-900">
            How it works
          </Link>
          <Link to="/privacy-policy" className="hover:text-slate-900">
            Privacy Policy
          </Link>
          <Link to="/data-deletion" className="hover:text-slate-900">
            Data Deletion
          </Link>
        </nav>
      </div>
    </footer>
  );
}
