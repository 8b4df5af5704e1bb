import FileAudio from "lucide-react/icons/file-headphone";
import FileVideo from "lucide-react/icons/file-play";
import ImageIcon from "lucide-react/icons/image";
import type { HTMLAttributes, ReactNode } from "react";

export type MediaKind = "photo" | "audio" | "video";

const typeIcons = { photo: ImageIcon, audio: FileAudio, video: FileVideo } as const;

type MediaTileProps = Omit<HTMLAttributes<HTMLElement>, "title"> & {
  as?: "article" | "li" | "div";
  kind: MediaKind;
  /** The file's name or description; truncated to one line unless `wrapTitle`. */
  title: string;
  wrapTitle?: boolean;
  /** No title row (a photo wall): the image's alt text names the item. */
  titleHidden?: boolean;
  /** A photo's image (its preview); `href` opens the full file in a new tab. */
  image?: { src: string; alt: string; href?: string };
  /** A native <audio> or <video> element; audio sits under its type icon. */
  player?: ReactNode;
  aspect?: "video" | "square";
  /** Lines under the title: the size, the session, a note. */
  meta?: ReactNode;
  /** Buttons beside the title (e.g. delete). */
  actions?: ReactNode;
  /** Controls laid over the preview's top-left corner (e.g. a selection toggle). */
  selection?: ReactNode;
  /** Controls laid over the preview's top-right corner (e.g. a star). */
  corner?: ReactNode;
  selected?: boolean;
};

/**
 * One media item: a photo, a player or the type's icon on top, then its title and details. The
 * same tile serves the session's media, the portfolio manager and the public portfolio.
 */
export function MediaTile({
  as: Tag = "div",
  kind,
  title,
  wrapTitle,
  titleHidden,
  image,
  player,
  aspect = "video",
  meta,
  actions,
  selection,
  corner,
  selected,
  className = "",
  ...props
}: MediaTileProps) {
  const ring = selected ? "border-brand-600 ring-2 ring-brand-600/30" : "border-slate-200";
  return (
    <Tag
      className={`relative min-w-0 overflow-hidden rounded-xl border bg-white ${ring} ${className}`}
      {...props}
    >
      <Preview kind={kind} image={image} player={player} aspect={aspect} />
      {selection ? <div className="absolute top-2 left-2">{selection}</div> : null}
      {corner ? <div className="absolute top-2 right-2">{corner}</div> : null}
      {titleHidden ? null : (
        <div className="flex items-start justify-between gap-2 p-3">
          <div className="min-w-0 flex-1 text-sm">
            <p className={`font-medium text-slate-900 ${wrapTitle ? "wrap-anywhere" : "truncate"}`}>
              {title}
            </p>
            {meta}
          </div>
          {actions ? <div className="shrink-0">{actions}</div> : null}
        </div>
      )}
    </Tag>
  );
}

function Preview({
  kind,
  image,
  player,
  aspect,
}: Pick<MediaTileProps, "kind" | "image" | "player" | "aspect">) {
  const aspectClass = aspect === "square" ? "aspect-square" : "aspect-video";
  if (player) {
    return kind === "audio" ? (
      <div className="bg-slate-50 p-4">
        <FileAudio aria-hidden className="mb-2 h-6 w-6 text-brand-600" />
        {/* The player's controls are drawn only near the viewport (decision 032). */}
        <div className="player-drawn-when-near">{player}</div>
      </div>
    ) : (
      <div className="bg-black">{player}</div>
    );
  }
  if (image) {
    const img = (
      <img
        src={image.src}
        alt={image.alt}
        loading="lazy"
        className={`${aspectClass} w-full object-cover`}
      />
    );
    return image.href ? (
      <a href={image.href} target="_blank" rel="noopener" className="block bg-slate-100">
        {img}
      </a>
    ) : (
      <div className="bg-slate-100">{img}</div>
    );
  }
  const Icon = typeIcons[kind];
  return (
    <div className={`flex ${aspectClass} items-center justify-center bg-slate-100`}>
      <Icon aria-hidden className="h-10 w-10 text-brand-600" />
    </div>
  );
}
