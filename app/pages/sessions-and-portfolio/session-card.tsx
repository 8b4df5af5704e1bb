import BadgeCheck from "lucide-react/icons/badge-check";
import Calendar from "lucide-react/icons/calendar";
import MoreVertical from "lucide-react/icons/ellipsis-vertical";
import MapPin from "lucide-react/icons/map-pin";
import Pencil from "lucide-react/icons/pencil";
import Share2 from "lucide-react/icons/share-2";
import Trash2 from "lucide-react/icons/trash";
import Users from "lucide-react/icons/users";
import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { PillList } from "~/components/ui/pill";
import type { SessionCard as SessionCardData } from "~/features/music-sessions/music-sessions.server";
import { SESSION_TYPE_LABELS } from "~/features/music-sessions/session-types";
import { VerificationLevelBadge } from "~/features/verification/verification-level-badge";
import { formatWallClock } from "~/lib/dates";

/**
 * A session in a list. Its date and time are the owner's wall clock with the zone's short name
 * ("November 15, 2026, 8:00 PM IST"), the same for every viewer wherever they are.
 */
export function SessionCard({ session, canEdit }: { session: SessionCardData; canEdit: boolean }) {
  const href = `/sessions/${session.id}`;
  const titleId = `session-${session.id}-title`;
  return (
    <Card
      as="article"
      variant="item"
      padding="sm"
      aria-labelledby={titleId}
      className="relative flex flex-col gap-3 shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-brand-600/40 hover:shadow-md"
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="flex items-center gap-1 font-semibold text-slate-900">
            <Link
              to={href}
              className="min-w-0 wrap-anywhere after:absolute after:inset-0 focus:outline-none"
            >
              {session.title}
            </Link>
            {session.isVerified ? (
              <BadgeCheck
                role="img"
                aria-label="Verified"
                className="h-4 w-4 shrink-0 text-emerald-600"
              />
            ) : null}
          </h3>
          <p className="mt-0.5 text-sm text-slate-600">
            {SESSION_TYPE_LABELS[session.sessionType]}
          </p>
        </div>
        {canEdit && !session.listedAsCollaborator ? (
          <details className="relative z-10">
            <summary
              aria-label={`Actions for ${session.title}`}
              className="flex h-8 w-8 cursor-pointer list-none items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
            >
              <MoreVertical aria-hidden className="h-4 w-4" />
            </summary>
            <ul className="absolute right-0 mt-1 w-44 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg">
              <li>
                <Link
                  to={`${href}?panel=edit`}
                  className="flex items-center gap-2 rounded-md px-3 py-2 hover:bg-slate-100"
                >
                  <Pencil aria-hidden className="h-4 w-4" /> Edit
                </Link>
              </li>
              <li>
                <Link
                  to={`${href}?panel=share`}
                  className="flex items-center gap-2 rounded-md px-3 py-2 hover:bg-slate-100"
                >
                  <Share2 aria-hidden className="h-4 w-4" /> Share Session
                </Link>
              </li>
              <li>
                <Link
                  to={`${href}?panel=delete`}
                  className="flex items-center gap-2 rounded-md px-3 py-2 text-red-700 hover:bg-red-50"
                >
                  <Trash2 aria-hidden className="h-4 w-4" /> Delete
                </Link>
              </li>
            </ul>
          </details>
        ) : null}
      </div>
      <div className="space-y-1 text-sm text-slate-600">
        <p className="flex items-center gap-1">
          <Calendar aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />
          <time dateTime={session.startTime.toISOString()}>
            {formatWallClock(session.startTime, session.timeZone, { withZone: true })}
          </time>
        </p>
        {session.venue ? (
          <p className="flex items-center gap-1">
            <MapPin aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />
            <span className="min-w-0 wrap-anywhere">{session.venue}</span>
          </p>
        ) : null}
      </div>
      <VerificationLevelBadge
        level={session.level}
        timeZone={session.timeZone}
        compact
        ownerName={session.listedAsCollaborator ? session.ownerName : undefined}
      />
      {session.instrumentsUsed.length > 0 ? (
        <PillList
          label="Instruments"
          items={session.instrumentsUsed}
          max={2}
          tone="brand"
          className="gap-1"
        />
      ) : null}
      {session.genres.length > 0 ? (
        <PillList label="Genres" items={session.genres} max={3} tone="neutral" className="gap-1" />
      ) : null}
      {session.listedAsCollaborator ? (
        <p className="flex items-center gap-1 text-xs font-medium text-violet-700">
          <Users aria-hidden className="h-3.5 w-3.5" /> Listed as collaborator
        </p>
      ) : null}
    </Card>
  );
}
