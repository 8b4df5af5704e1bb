import MapPin from "lucide-react/icons/map-pin";
import Star from "lucide-react/icons/star";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Pill } from "~/components/ui/pill";
import { formatLongDate } from "~/lib/date-text";
import { fileUrl } from "~/lib/file-url";
import { ArtistAvatar } from "./artist-avatar";
import type { ArtistSummary } from "./artist-summary.server";
import type { CardMedia } from "./card-media.server";
import { formatRating, priceText } from "./format";

/**
 * A discovery result: name, whether the artist is available, genre, rating, price, location, bio
 * (two lines) and instruments, and the way to the profile to book.
 */
export function ArtistCard({
  artist,
  availableOn,
  belowFirstScreen = false,
  children,
  media,
}: {
  artist: ArtistSummary;
  /** The date searched for ("Available on"): said on the card, and booking starts on it. */
  availableOn?: string;
  /** Usually below the first screen of a list: drawn only when near the viewport. */
  belowFirstScreen?: boolean;
  /** More lines about the artist under the instruments (the page's trust figures). */
  children?: React.ReactNode;
  /** The cover photo and featured clip the artist chose, when any. */
  media?: CardMedia;
}) {
  return (
    <Card
      as="article"
      padding="md"
      aria-labelledby={`artist-${artist.id}`}
      className={`flex flex-col shadow-sm ${belowFirstScreen ? "drawn-when-near" : ""}`}
    >
      {media?.coverPath ? (
        // Lazy, with its size given, so nothing moves when it arrives.
        <img
          src={fileUrl(media.coverPath)}
          alt=""
          width={640}
          height={240}
          loading="lazy"
          decoding="async"
          className="mb-4 aspect-[8/3] w-full rounded-lg bg-slate-100 object-cover"
        />
      ) : null}
      <div className="flex items-start gap-4">
        <ArtistAvatar name={artist.artistName} avatarPath={artist.avatarPath} />
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-2">
            <h2 id={`artist-${artist.id}`} className="truncate text-lg font-semibold">
              {artist.artistName}
            </h2>
            {artist.isAvailable ? (
              <Pill tone="success" className="shrink-0 font-medium">
                Available
              </Pill>
            ) : null}
          </div>
          <p className="text-sm text-slate-600 wrap-anywhere">{artist.genre}</p>
          <p className="mt-1 flex items-center gap-1 text-sm text-slate-700">
            <Star aria-hidden className="h-4 w-4 fill-accent-500 text-accent-500" />
            <span>
              {formatRating(artist.rating)} ({artist.totalReviews})
            </span>
          </p>
          <p className="mt-1 text-sm font-medium text-slate-900">{priceText(artist)}</p>
        </div>
      </div>
      <p className="mt-3 flex items-center gap-1 text-sm text-slate-600">
        <MapPin aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />
        <span className="min-w-0 wrap-anywhere">{artist.location}</span>
      </p>
      {artist.clientVerifiedSessions > 0 ? (
        <p className="mt-1 text-sm font-medium text-emerald-800">
          {artist.clientVerifiedSessions} Client-verified{" "}
          {artist.clientVerifiedSessions === 1 ? "gig" : "gigs"}
        </p>
      ) : null}
      <p className="mt-2 line-clamp-2 text-sm text-slate-600 wrap-anywhere">{artist.bio}</p>
      <p className="mt-2 text-sm text-slate-800 wrap-anywhere">
        <span className="sr-only">Instruments: </span>
        {artist.instruments}
      </p>
      {media?.clipPath ? <FeaturedClip path={media.clipPath} title={media.clipTitle} /> : null}
      {availableOn ? (
        <p className="mt-2 text-sm font-medium text-emerald-800">
          Available on {formatLongDate(availableOn)}
        </p>
      ) : null}
      {children}
      <Link
        to={availableOn ? `/artist/${artist.id}?date=${availableOn}` : `/artist/${artist.id}`}
        className={buttonClasses("primary", "md", "mt-4 w-full")}
        aria-describedby={`artist-${artist.id}`}
      >
        View Profile &amp; Book
      </Link>
    </Card>
  );
}

/**
 * The artist's featured clip: a player that loads nothing until it is played (preload none), so
 * a page of cards costs no audio.
 */
export function FeaturedClip({ path, title }: { path: string; title: string | null }) {
  const label = title ? `Listen: ${title}` : "Listen";
  return (
    <figure className="mt-3">
      <figcaption className="mb-1 text-sm font-medium text-slate-800 wrap-anywhere">
        {label}
      </figcaption>
      {/* biome-ignore lint/a11y/useMediaCaption: artists' recordings of music come without captions */}
      <audio controls preload="none" src={fileUrl(path)} className="w-full" aria-label={label}>
        <a href={fileUrl(path)}>Download the clip</a>
      </audio>
    </figure>
  );
}
