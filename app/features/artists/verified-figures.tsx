import BadgeCheck from "lucide-react/icons/badge-check";
import Clock from "lucide-react/icons/clock";
import Star from "lucide-react/icons/star";
import { Link } from "react-router";
import { StatCard } from "~/components/ui/stat-card";
import { formatHours } from "~/lib/hours";
import { formatRating } from "./format";

type Figures = {
  verifiedSessions: number;
  /** Client-verified gigs, when known. */
  clientVerifiedSessions?: number;
  totalSessions: number;
  totalMinutes: number;
  rating: number;
  totalReviews: number;
};

/**
 * Verified Sessions (Peer-confirmed or above, with how many are Client-verified), Total Hours and
 * Rating: the artist's track record, as cards. Each session's own level is on its card.
 */
export function VerifiedFigureCards({ artist }: { artist: Figures }) {
  return (
    <>
      <StatCard
        icon={BadgeCheck}
        label="Verified Sessions"
        value={artist.verifiedSessions}
        detail={
          <>
            {`of ${artist.totalSessions} logged`}
            {artist.clientVerifiedSessions !== undefined
              ? ` · ${artist.clientVerifiedSessions} Client-verified`
              : ""}
            <span className="block">
              Peer-confirmed or above.{" "}
              <Link to="/verification" className="text-brand-700 underline">
                What the levels mean
              </Link>
            </span>
          </>
        }
      />
      <StatCard icon={Clock} label="Total Hours" value={formatHours(artist.totalMinutes)} />
      <StatCard
        icon={Star}
        label="Rating"
        value={
          <>
            {formatRating(artist.rating)}
            {artist.rating > 0 ? (
              <span className="text-base font-normal text-slate-500"> / 5</span>
            ) : null}
          </>
        }
        detail={`${artist.totalReviews} ${artist.totalReviews === 1 ? "review" : "reviews"}`}
      />
    </>
  );
}
