import Music from "lucide-react/icons/eighth-notes";
import Lock from "lucide-react/icons/lock";
import MapPin from "lucide-react/icons/map-pin";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Card, cardClasses } from "~/components/ui/card";
import { MediaTile } from "~/components/ui/media-tile";
import { Pill, PillList } from "~/components/ui/pill";
import { ShareButtonMarkup } from "~/components/ui/share-button";
import { ArtistAvatar } from "~/features/artists/artist-avatar";
import { VerifiedFigureCards } from "~/features/artists/verified-figures";
import type { PortfolioPage, PublicPortfolioMedia } from "~/features/portfolio/portfolio.server";
import { fileUrl } from "~/lib/file-url";

/**
 * The public portfolio (/portfolio/{id}), drawn on the server only (decision 022). Its share
 * button is the `share` action and its players carry `data-report-play` (the media's id), both
 * handled by `usePortfolioReports`; the artist's own page marks no player.
 */
export function PublicPortfolio({ page }: { page: PortfolioPage }) {
  const { artist, media } = page;
  // Plays are reported for visitors only: the artist's own visits count nothing.
  const reportPlays = !page.isOwner;

  const audio = media.filter((m) => m.mediaType === "audio");
  const video = media.filter((m) => m.mediaType === "video");
  const photos = media.filter((m) => m.mediaType === "photo");

  return (
    <main id="main" className="mx-auto max-w-5xl space-y-8 px-4 py-8 sm:py-12">
      {page.isOwner ? (
        <p className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <Lock aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          {page.isPublic
            ? "This is your public portfolio. Your own visits are not counted in its analytics."
            : "This portfolio is private: only you can see it. Make it public in the portfolio manager's Settings tab."}
        </p>
      ) : null}
      <Card as="header" className="flex flex-col gap-6 sm:flex-row sm:items-start">
        <ArtistAvatar name={artist.artistName} avatarPath={artist.avatarPath} size="lg" />
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-bold wrap-anywhere">{page.title}</h1>
          <p className="mt-1 text-lg wrap-anywhere">
            by{" "}
            <Link to={`/artist/${artist.slug}`} className="font-medium text-brand-700 underline">
              {artist.artistName}
            </Link>
          </p>
          <PillList label="About" className="mt-3 gap-2">
            <Pill as="li" tone="brand" size="md" icon={Music}>
              {artist.genre}
            </Pill>
            <Pill as="li" tone="neutral" size="md" icon={MapPin}>
              {artist.location}
            </Pill>
          </PillList>
          {page.description ? (
            <p className="mt-4 whitespace-pre-line break-words text-slate-700">
              {page.description}
            </p>
          ) : null}
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to={`/artist/${artist.slug}`} className={buttonClasses("primary", "md")}>
              View Profile
            </Link>
            <ShareButtonMarkup />
          </div>
        </div>
      </Card>

      <section aria-label="Verified figures" className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <VerifiedFigureCards artist={artist} />
      </section>

      {media.length === 0 ? (
        <p className={cardClasses({ padding: "none" }, "p-10 text-center text-slate-600")}>
          No featured media yet
        </p>
      ) : null}
      {audio.length > 0 ? (
        <MediaSection title="Audio">
          <ul className="space-y-3">
            {audio.map((m) => (
              <PlayerTile key={m.id} media={m} reportPlays={reportPlays} />
            ))}
          </ul>
        </MediaSection>
      ) : null}
      {video.length > 0 ? (
        <MediaSection title="Videos">
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {video.map((m) => (
              <PlayerTile key={m.id} media={m} reportPlays={reportPlays} />
            ))}
          </ul>
        </MediaSection>
      ) : null}
      {photos.length > 0 ? (
        <MediaSection title="Photos">
          <ul className="grid grid-cols-2 gap-3 md:grid-cols-3">
            {photos.map((m) => (
              <MediaTile
                as="li"
                key={m.id}
                kind="photo"
                title={m.description ?? m.fileName}
                titleHidden
                aspect="square"
                image={{
                  src: fileUrl(m.previewPath ?? m.filePath),
                  alt: m.description ?? m.fileName,
                  href: fileUrl(m.filePath),
                }}
              />
            ))}
          </ul>
        </MediaSection>
      ) : null}
    </main>
  );
}

function MediaSection({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title}>
      <h2 className="mb-3 text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** An audio or video item: its player, its name and the session it comes from. */
function PlayerTile({ media, reportPlays }: { media: PublicPortfolioMedia; reportPlays: boolean }) {
  return (
    <MediaTile
      as="li"
      kind={media.mediaType}
      title={media.description ?? media.fileName}
      wrapTitle
      player={<Player media={media} reportPlays={reportPlays} />}
      meta={<p className="mt-1 text-slate-600 wrap-anywhere">From “{media.sessionTitle}”</p>}
    />
  );
}

/** A native player; with `reportPlays`, its first start is reported as a play. */
function Player({ media, reportPlays }: { media: PublicPortfolioMedia; reportPlays: boolean }) {
  const reported = reportPlays ? { "data-report-play": media.id } : {};
  const label = media.description ?? media.fileName;
  return media.mediaType === "audio" ? (
    // Nothing is fetched before a visitor presses play: a recording's "metadata" preload fetched
    // the whole file on a cold load (a video keeps it: its first frame is what the tile shows).
    <audio
      controls
      preload="none"
      src={fileUrl(media.filePath)}
      {...reported}
      aria-label={label}
      className="w-full"
    />
  ) : (
    <video
      controls
      playsInline
      preload="metadata"
      src={fileUrl(media.filePath)}
      {...reported}
      aria-label={label}
      className="aspect-video w-full bg-black"
    />
  );
}
