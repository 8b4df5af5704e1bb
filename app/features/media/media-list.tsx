import Trash2 from "lucide-react/icons/trash";
import { useFetcher } from "react-router";
import { MediaTile } from "~/components/ui/media-tile";
import { Spinner } from "~/components/ui/spinner";
import { fileUrl } from "~/lib/file-url";
import { usePending } from "~/lib/use-pending";
import type { MediaItem } from "./media.server";
import { formatFileSize } from "./media-type";

/** Photos as images (their preview), audio and video in native players that can seek. */
export function MediaList({
  media,
  sessionId,
  canEdit,
}: {
  media: MediaItem[];
  sessionId: string;
  canEdit: boolean;
}) {
  if (media.length === 0)
    return <p className="py-6 text-center text-slate-600">No media uploaded yet</p>;
  return (
    <ul aria-label="Media" className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {media.map((m) => (
        <MediaTile
          as="li"
          key={m.id}
          kind={m.mediaType}
          title={m.fileName}
          image={
            m.mediaType === "photo"
              ? {
                  src: fileUrl(m.previewPath ?? m.filePath),
                  alt: m.description ?? m.fileName,
                  href: fileUrl(m.filePath),
                }
              : undefined
          }
          player={
            m.mediaType === "audio" ? (
              // biome-ignore lint/a11y/useMediaCaption: user recordings come without captions
              <audio
                controls
                preload="metadata"
                src={fileUrl(m.filePath)}
                className="w-full"
                aria-label={m.fileName}
              />
            ) : m.mediaType === "video" ? (
              // biome-ignore lint/a11y/useMediaCaption: user recordings come without captions
              <video
                controls
                playsInline
                preload="metadata"
                src={fileUrl(m.filePath)}
                className="aspect-video w-full"
                aria-label={m.fileName}
              />
            ) : undefined
          }
          meta={
            <>
              <p className="text-slate-500">{formatFileSize(m.fileSize)}</p>
              {m.description ? (
                <p className="mt-1 wrap-anywhere text-slate-700">{m.description}</p>
              ) : null}
            </>
          }
          actions={
            canEdit ? (
              <DeleteMediaButton mediaId={m.id} sessionId={sessionId} name={m.fileName} />
            ) : undefined
          }
        />
      ))}
    </ul>
  );
}

function DeleteMediaButton({
  mediaId,
  sessionId,
  name,
}: {
  mediaId: string;
  sessionId: string;
  name: string;
}) {
  const fetcher = useFetcher();
  const busy = usePending({ fetcher });
  return (
    <fetcher.Form
      method="post"
      action={`/sessions/${sessionId}/media`}
      onSubmit={(e) => {
        if (!window.confirm(`Delete ${name}? This cannot be undone.`)) e.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value="delete-media" />
      <input type="hidden" name="mediaId" value={mediaId} />
      <button
        type="submit"
        disabled={busy}
        aria-label={`Delete ${name}`}
        className="inline-flex h-9 w-9 items-center justify-center rounded-lg text-red-700 hover:bg-red-50 disabled:opacity-50"
      >
        {busy ? <Spinner /> : <Trash2 aria-hidden className="h-4 w-4" />}
      </button>
    </fetcher.Form>
  );
}
