import Music from "lucide-react/icons/eighth-notes";
import Plus from "lucide-react/icons/plus";
import { Link, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import type { SessionsSectionData } from "~/features/music-sessions/music-sessions.server";
import { SessionCard } from "./session-card";
import { logSessionHref } from "./sessions-section";

/**
 * The sessions found, as cards, or why there are none: drawn on the server only (decision 022,
 * `renderSessionsSection`); each card's menu is a native disclosure of plain links.
 */
export function SessionList({ data }: { data: SessionsSectionData }) {
  const location = useLocation();
  if (data.sessions.length === 0)
    return (
      <div className="flex flex-col items-center py-10 text-center">
        <Music aria-hidden className="h-10 w-10 text-slate-300" />
        <p className="mt-2 font-medium text-slate-700">
          {data.hasNone ? "No sessions logged yet" : "No sessions match your search"}
        </p>
        {data.hasNone && data.isOwner ? (
          <Link to={logSessionHref(location)} className={buttonClasses("primary", "md", "mt-4")}>
            <Plus aria-hidden className="h-4 w-4" /> Log Your First Session
          </Link>
        ) : null}
      </div>
    );
  return (
    <ul aria-label="Sessions" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {data.sessions.map((s) => (
        <li key={s.id} className="grid min-w-0 grid-cols-1">
          <SessionCard session={s} canEdit={data.isOwner} />
        </li>
      ))}
    </ul>
  );
}
