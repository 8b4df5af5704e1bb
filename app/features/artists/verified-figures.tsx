import BadgeCheck from "lucide-react/icons/badge-check";
import Clock from "lucide-react/icons/clock";
import Star from "lucide-react/icons/star";
import { StatCard } from "~/components/ui/stat-card";
import { formatHours } from "~/lib/dates";
import { formatRating } from "./format";

type Figures = {
  verifiedSessions: number;
  totalSessions: number;
  totalMinutes: number;
  rating: number;
  totalReviews: number;
};

/** Verified Sessions, Total Hours and Rating: the artist's track record, as cards. */
export function VerifiedFigureCards({ artist }: { artist: Figures }) {
  return (
    <>
      <StatCard
        icon={BadgeCheck}
        label="Verified Sessions"
        value={artist.verifiedSessions}
        detail={`of ${artist.totalSessions} logged`}
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
