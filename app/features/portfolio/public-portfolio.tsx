import { FileAudio, Lock, MapPin, Music, Share2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { useToast } from "~/components/ui/toast";
import { ArtistAvatar } from "~/features/artists/artist-avatar";
import { VerifiedFigureCards } from "~/features/artists/verified-figures";
import { fileUrl } from "./format";
import type { PortfolioPage, PublicPortfolioMedia } from "./portfolio.server";
import { shareOrCopy } from "./share";

/**
 * The public portfolio (/portfolio/{id}). Visits, plays and shares are reported to this page's
 * action after hydration, so crawlers, link previews and prefetches are never counted; the
 * artist's own page reports nothing.
 */
export function PublicPortfolio({ page, url }: { page: PortfolioPage; url: string }) {
  const { artist, media } = page;
  const track = !page.isOwner;
  const view = useFetcher();
  const sent = useRef(false);
  useEffect(() => {
    if (!track || sent.current) return;
    sent.current = true;
    view.submit({ intent: "view" }, { method: "post" });
  }, [track, view]);

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
      <header className="flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 sm:flex-row sm:items-start">
        <ArtistAvatar name={artist.artistName} avatarPath={artist.avatarPath} size="lg" />
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-bold break-words">{page.title}</h1>
          <p className="mt-1 text-lg">
            by{" "}
            <Link to={`/artist/${artist.slug}`} className="font-medium text-brand-700 underline">
              {artist.artistName}
            </Link>
          </p>
          <ul className="mt-3 flex flex-wrap gap-2 text-sm" aria-label="About">
            <li className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-3 py-1 text-brand-900">
              <Music aria-hidden className="h-4 w-4" /> {artist.genre}
            </li>
            <li className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-slate-800">
              <MapPin aria-hidden className="h-4 w-4" /> {artist.location}
            </li>
          </ul>
          {page.description ? (
            <p className="mt-4 whitespace-pre-line text-slate-700">{page.description}</p>
          ) : null}
          <div className="mt-6 flex flex-wrap gap-3">
            <Link
              to={`/artist/${artist.slug}`}
              className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700"
            >
              View Profile
            </Link>
            <ShareButton url={url} title={page.title} track={track} />
          </div>
        </div>
      </header>

      <section aria-label="Verified figures" className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <VerifiedFigureCards artist={artist} />
      </section>

      {media.length === 0 ? (
        <p className="rounded-2xl border border-slate-200 bg-white p-10 text-center text-slate-600">
          No featured media yet
        </p>
      ) : null}
      {audio.length > 0 ? (
        <MediaSection title="Audio">
          <ul className="space-y-3">
            {audio.map((m) => (
              <li key={m.id} className="rounded-xl border border-slate-200 bg-white p-4">
                <p className="mb-2 flex items-center gap-2 font-medium">
                  <FileAudio aria-hidden className="h-5 w-5 text-brand-600" />{" "}
                  {m.description ?? m.fileName}
                </p>
                <Player media={m} track={track} />
                <Caption media={m} />
              </li>
            ))}
          </ul>
        </MediaSection>
      ) : null}
      {video.length > 0 ? (
        <MediaSection title="Videos">
          <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {video.map((m) => (
              <li
                key={m.id}
                className="overflow-hidden rounded-xl border border-slate-200 bg-white"
              >
                <Player media={m} track={track} />
                <div className="p-3">
                  <p className="font-medium">{m.description ?? m.fileName}</p>
                  <Caption media={m} />
                </div>
              </li>
            ))}
          </ul>
        </MediaSection>
      ) : null}
      {photos.length > 0 ? (
        <MediaSection title="Photos">
          <ul className="grid grid-cols-2 gap-3 md:grid-cols-3">
            {photos.map((m) => (
              <li
                key={m.id}
                className="overflow-hidden rounded-xl border border-slate-200 bg-white"
              >
                <a
                  href={fileUrl(m.filePath)}
                  target="_blank"
                  rel="noopener"
                  className="block bg-slate-100"
                >
                  <img
                    src={fileUrl(m.previewPath ?? m.filePath)}
                    alt={m.description ?? m.fileName}
                    loading="lazy"
                    className="aspect-square w-full object-cover"
                  />
                </a>
              </li>
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

function Caption({ media }: { media: PublicPortfolioMedia }) {
  return <p className="mt-1 text-sm text-slate-600">From “{media.sessionTitle}”</p>;
}

/** A native player; its first start is reported once as a play. */
function Player({ media, track }: { media: PublicPortfolioMedia; track: boolean }) {
  const fetcher = useFetcher();
  const played = useRef(false);
  const onPlay = () => {
    if (!track || played.current) return;
    played.current = true;
    fetcher.submit({ intent: "play", mediaId: media.id }, { method: "post" });
  };
  const label = media.description ?? media.fileName;
  return media.mediaType === "audio" ? (
    // biome-ignore lint/a11y/useMediaCaption: user recordings come without captions
    <audio
      controls
      preload="metadata"
      src={fileUrl(media.filePath)}
      onPlay={onPlay}
      aria-label={label}
      className="w-full"
    />
  ) : (
    // biome-ignore lint/a11y/useMediaCaption: user recordings come without captions
    <video
      controls
      playsInline
      preload="metadata"
      src={fileUrl(media.filePath)}
      onPlay={onPlay}
      aria-label={label}
      className="aspect-video w-full bg-black"
    />
  );
}

function ShareButton({ url, title, track }: { url: string; title: string; track: boolean }) {
  const toast = useToast();
  const fetcher = useFetcher();
  return (
    <Button
      variant="outline"
      onClick={async () => {
        const result = await shareOrCopy(url, title);
        if (result === "failed") {
          toast({
            title: "Error",
            description: "Could not copy the link. Please copy it by hand.",
            variant: "destructive",
          });
          return;
        }
        if (result === "cancelled") return;
        if (result === "copied")
          toast({ title: "Link Copied", description: "Portfolio link copied to clipboard." });
        if (track) fetcher.submit({ intent: "share" }, { method: "post" });
      }}
    >
      <Share2 aria-hidden className="h-4 w-4" /> Share
    </Button>
  );
}
