import { BadgeCheck, MapPin } from "lucide-react";
import { Card } from "~/components/ui/card";
import { formatHours, formatLongDate } from "~/lib/dates";
import type { RecentPerformance } from "./artists.server";

/** The artist's latest sessions: venue (or title), verified or not, type, date and hours. */
export function RecentPerformances({ performances }: { performances: RecentPerformance[] }) {
  return (
    <Card as="section" aria-labelledby="recent-title">
      <h2 id="recent-title" className="text-lg font-semibold">
        Recent Performances
      </h2>
      {performances.length === 0 ? (
        <p className="mt-4 text-slate-600">No performances recorded yet</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100">
          {performances.map((p) => (
            <li key={p.id} className="flex items-start justify-between gap-4 py-3">
              <div className="min-w-0 flex-1">
                <p className="flex items-center gap-1 font-medium">
                  <MapPin aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />
                  <span className="truncate">{p.venue ?? p.title}</span>
                  {p.isVerified ? (
                    <BadgeCheck
                      role="img"
                      aria-label="Verified"
                      className="h-4 w-4 shrink-0 text-emerald-600"
                    />
                  ) : null}
                </p>
                <p className="text-sm text-slate-500">
                  <span className="capitalize">{p.sessionType}</span> ·{" "}
                  {formatLongDate(p.startTime.toISOString().slice(0, 10))}
                </p>
              </div>
              <span className="shrink-0 text-sm font-medium text-slate-700">
                {formatHours(p.durationMinutes)} h
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
