import { MapPin, Star } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { ArtistAvatar } from "./artist-avatar";
import type { ArtistSummary } from "./artists.server";
import { formatRating } from "./format";

/** A discovery result (product-spec 2.6). */
export function ArtistCard({ artist }: { artist: ArtistSummary }) {
  return (
    <article
      aria-labelledby={`artist-${artist.id}`}
      className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-start gap-4">
        <ArtistAvatar name={artist.artistName} avatarPath={artist.avatarPath} />
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-2">
            <h2 id={`artist-${artist.id}`} className="truncate text-lg font-semibold">
              {artist.artistName}
            </h2>
            {artist.isAvailable ? (
              <span className="shrink-0 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-800">
                Available
              </span>
            ) : null}
          </div>
          <p className="text-sm text-slate-600">{artist.genre}</p>
          <p className="mt-1 flex items-center gap-1 text-sm text-slate-700">
            <Star aria-hidden className="h-4 w-4 fill-accent-500 text-accent-500" />
            <span>
              {formatRating(artist.rating)} ({artist.totalReviews})
            </span>
          </p>
        </div>
      </div>
      <p className="mt-3 flex items-center gap-1 text-sm text-slate-600">
        <MapPin aria-hidden className="h-4 w-4 text-slate-400" /> {artist.location}
      </p>
      <p className="mt-2 line-clamp-2 text-sm text-slate-600">{artist.bio}</p>
      <p className="mt-2 text-sm text-slate-800">
        <span className="sr-only">Instruments: </span>
        {artist.instruments}
      </p>
      <Link
        to={`/artist/${artist.id}`}
        className={buttonClasses("primary", "md", "mt-4 w-full")}
        aria-describedby={`artist-${artist.id}`}
      >
        View Profile &amp; Book
      </Link>
    </article>
  );
}
