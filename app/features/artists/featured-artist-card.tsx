import BadgeCheck from "lucide-react/icons/badge-check";
import MapPin from "lucide-react/icons/map-pin";
import Star from "lucide-react/icons/star";
import { Link } from "react-router";
import { cardClasses } from "~/components/ui/card";
import { ArtistAvatar } from "./artist-avatar";
import type { ArtistSummary } from "./artist-summary.server";
import { formatRating } from "./format";

/** A landing-page card: the artist's picture (or initials), genre, bio, location and figures. */
export function FeaturedArtistCard({ artist }: { artist: ArtistSummary }) {
  return (
    <Link
      to={`/artist/${artist.slug}`}
      className={cardClasses(
        {},
        "group flex flex-col shadow-sm transition hover:border-brand-600 hover:shadow-md",
      )}
    >
      <div className="flex items-center gap-4">
        <ArtistAvatar name={artist.artistName} avatarPath={artist.avatarPath} />
        <div className="min-w-0">
          <h3 className="truncate text-lg font-semibold group-hover:text-brand-700">
            {artist.artistName}
          </h3>
          <p className="text-sm text-slate-600 wrap-anywhere">{artist.genre}</p>
        </div>
      </div>
      <p className="mt-4 line-clamp-2 text-sm text-slate-600 wrap-anywhere">{artist.bio}</p>
      <dl className="mt-4 flex flex-wrap gap-x-4 gap-y-2 text-sm text-slate-700">
        <div className="flex min-w-0 items-center gap-1">
          <dt className="sr-only">Location</dt>
          <MapPin aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />
          <dd className="min-w-0 wrap-anywhere">{artist.location}</dd>
        </div>
        <div className="flex items-center gap-1">
          <dt className="sr-only">Rating</dt>
          <Star aria-hidden className="h-4 w-4 fill-accent-500 text-accent-500" />
          <dd>
            {formatRating(artist.rating)} ({artist.totalReviews})
          </dd>
        </div>
        <div className="flex items-center gap-1">
          <dt className="sr-only">Verified sessions</dt>
          <BadgeCheck aria-hidden className="h-4 w-4 text-emerald-600" />
          <dd>{artist.verifiedSessions} verified sessions</dd>
        </div>
      </dl>
    </Link>
  );
}
