import BadgeCheck from "lucide-react/icons/badge-check";
import MapPin from "lucide-react/icons/map-pin";
import { Card } from "~/components/ui/card";
import type { RecentPerformance } from "~/features/artists/artists.server";
import { VerificationLevelBadge } from "~/features/verification/verification-level-badge";
import { formatMinutes, formatWallClock } from "~/lib/dates";

/**
 * The artist's latest performances: venue (or title), verified or not, type, date and time,
 * duration, and the verification level with who verified it and when. Times are the artist's wall clock with the zone's short name, the same for every
 * viewer and the same as on the session's card and page.
 */
export function RecentPerformances({
  performances,
  timeZone,
}: {
  performances: RecentPerformance[];
  /** The artist's time zone. */
  timeZone: string;
}) {
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
                  <time dateTime={p.startTime.toISOString()}>
                    {formatWallClock(p.startTime, timeZone, { withZone: true })}
                  </time>
                </p>
                <div className="mt-1">
                  <VerificationLevelBadge level={p.level} timeZone={timeZone} compact />
                </div>
              </div>
              <span className="shrink-0 text-sm font-medium text-slate-700">
                {formatMinutes(p.durationMinutes)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
