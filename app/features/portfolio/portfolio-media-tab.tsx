import Check from "lucide-react/icons/check";
import ImageOff from "lucide-react/icons/image-off";
import Search from "lucide-react/icons/search";
import Star from "lucide-react/icons/star";
import { useMemo, useState } from "react";
import { useFetcher } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { inputClasses } from "~/components/ui/input-classes";
import { MediaTile } from "~/components/ui/media-tile";
import { SelectField } from "~/components/ui/select-field";
import { Spinner } from "~/components/ui/spinner";
import { fileUrl } from "~/lib/file-url";
import type { FormReply } from "~/lib/form";
import { useToastOn } from "~/lib/use-toast-on";
import { MANAGER_ACTION } from "./manager-action";
import type { ManagerMedia } from "./portfolio.server";

const FILTERS = [
  { value: "all", label: "All Media" },
  { value: "audio", label: "Audio" },
  { value: "video", label: "Video" },
  { value: "photo", label: "Photos" },
] as const;
type Filter = (typeof FILTERS)[number]["value"];

function matches(m: ManagerMedia, q: string, filter: Filter) {
  if (filter !== "all" && m.mediaType !== filter) return false;
  if (!q) return true;
  const text = `${m.fileName} ${m.description ?? ""} ${m.sessionTitle}`.toLowerCase();
  return text.includes(q.toLowerCase());
}

/** The Media tab: search, filter, select for the bulk bar, and a star per item. */
export function PortfolioMediaTab({ media }: { media: ManagerMedia[] }) {
  const [q, setQ] = useState("");
  const [filter, setFilter] = useState<Filter>("all");
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const bulk = useFetcher<FormReply>();
  useToastOn(bulk.data, bulk.data?.toast);

  const shown = useMemo(
    () => media.filter((m) => matches(m, q.trim(), filter)),
    [media, q, filter],
  );
  // Items deleted meanwhile drop out of the selection.
  const known = new Set(media.map((m) => m.id));
  const chosen = [...selected].filter((id) => known.has(id));

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const submitBulk = (featured: boolean) => {
    const form = new FormData();
    form.set("featured", String(featured));
    for (const id of chosen) form.append("mediaIds", id);
    bulk.submit(form, { method: "post", action: MANAGER_ACTION });
  };
  // The selection is cleared once the server confirmed the change.
  const [handled, setHandled] = useState<unknown>(null);
  if (bulk.state === "idle" && bulk.data && bulk.data !== handled) {
    setHandled(bulk.data);
    if (bulk.data.ok) setSelected(new Set());
  }
  const busy = bulk.state !== "idle";

  return (
    <div className="space-y-4">
      <search className="flex flex-col gap-2 sm:flex-row">
        <div className="relative flex-1">
          <label htmlFor="portfolio-media-search" className="sr-only">
            Search media files
          </label>
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
          />
          <input
            id="portfolio-media-search"
            type="search"
            value={q}
            onChange={(e) => setQ(e.target.value)}
            placeholder="Search media files..."
            className={`${inputClasses} pl-9`}
          />
        </div>
        <SelectField
          id="portfolio-media-filter"
          label="Media type"
          labelHidden
          value={filter}
          onChange={(e) => setFilter(e.target.value as Filter)}
          className="sm:w-44"
        >
          {FILTERS.map((f) => (
            <option key={f.value} value={f.value}>
              {f.label}
            </option>
          ))}
        </SelectField>
      </search>

      {chosen.length > 0 ? (
        <section
          aria-label="Selected media"
          className="flex flex-col gap-2 rounded-lg border border-brand-200 bg-brand-50 p-3 sm:flex-row sm:items-center sm:justify-between"
        >
          <p aria-live="polite" className="font-medium text-brand-900">
            {chosen.length} items selected
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" disabled={busy} onClick={() => submitBulk(true)}>
              {busy ? <Spinner /> : null} Add to Portfolio
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => submitBulk(false)}>
              Remove from Portfolio
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setSelected(new Set())}>
              Clear Selection
            </Button>
          </div>
        </section>
      ) : null}

      {shown.length === 0 ? (
        <div className="flex flex-col items-center py-10 text-center">
          <ImageOff aria-hidden className="h-10 w-10 text-slate-300" />
          <p className="mt-2 font-medium text-slate-700">No media files found</p>
          <p className="text-sm text-slate-600">
            Upload media files in your sessions to add them to your portfolio
          </p>
        </div>
      ) : (
        <ul
          aria-label="Media files"
          className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3"
        >
          {shown.map((m) => (
            <li key={m.id}>
              <MediaCard media={m} selected={selected.has(m.id)} onToggle={() => toggle(m.id)} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MediaCard({
  media: m,
  selected,
  onToggle,
}: {
  media: ManagerMedia;
  selected: boolean;
  onToggle: () => void;
}) {
  const star = useFetcher<FormReply>();
  useToastOn(star.data, star.data?.toast);
  // Optimistic: the star shows what was asked while the server answers.
  const pending = star.formData?.get("featured");
  const featured = pending ? pending === "true" : m.isPortfolioFeatured;
  return (
    <MediaTile
      as="article"
      aria-label={m.fileName}
      kind={m.mediaType}
      title={m.fileName}
      selected={selected}
      image={
        m.mediaType === "photo"
          ? { src: fileUrl(m.previewPath ?? m.filePath), alt: m.description ?? m.fileName }
          : undefined
      }
      meta={
        <>
          <p className="truncate text-slate-600">{m.sessionTitle}</p>
          {featured ? (
            <p className="mt-1 text-xs font-medium text-amber-700">In portfolio</p>
          ) : null}
          {m.mediaType === "video" ? null : <ProfileMediaButton media={m} />}
        </>
      }
      selection={
        <button
          type="button"
          aria-pressed={selected}
          aria-label={`Select ${m.fileName}`}
          onClick={onToggle}
          className={`flex h-8 w-8 items-center justify-center rounded-full border-2 shadow ${selected ? "border-brand-600 bg-brand-600 text-white" : "border-white bg-white/80 text-transparent hover:text-slate-400"}`}
        >
          <Check aria-hidden className="h-4 w-4" />
        </button>
      }
      corner={
        <star.Form method="post" action={MANAGER_ACTION}>
          <input type="hidden" name="mediaIds" value={m.id} />
          <input type="hidden" name="featured" value={String(!featured)} />
          <button
            type="submit"
            aria-pressed={featured}
            aria-label={`Feature ${m.fileName} in portfolio`}
            title={featured ? "Remove from Portfolio" : "Add to Portfolio"}
            className="flex h-8 w-8 items-center justify-center rounded-full bg-white/90 shadow hover:bg-white"
          >
            <Star
              aria-hidden
              className={`h-4 w-4 ${featured ? "fill-amber-400 text-amber-500" : "text-slate-500"}`}
            />
          </button>
        </star.Form>
      }
    />
  );
}

/**
 * A photo can be the cover, an audio file the featured clip: what clients meet first on the
 * discovery card and atop the profile. One button chooses it or stops showing it.
 */
function ProfileMediaButton({ media: m }: { media: ManagerMedia }) {
  const fetcher = useFetcher<FormReply>();
  useToastOn(fetcher.data, fetcher.data?.toast);
  const slot = m.mediaType === "photo" ? "cover" : "clip";
  const pending = fetcher.formData?.get("chosen");
  const chosen = pending ? pending === "true" : slot === "cover" ? m.isCover : m.isClip;
  const label =
    slot === "cover"
      ? chosen
        ? "Remove as cover photo"
        : "Use as cover photo"
      : chosen
        ? "Stop featuring this clip"
        : "Feature this clip";
  return (
    <fetcher.Form method="post" action={MANAGER_ACTION} className="mt-2">
      {chosen ? (
        <p className="mb-1 text-xs font-medium text-brand-800">
          {slot === "cover" ? "Your cover photo" : "Your featured clip"}
        </p>
      ) : null}
      <input type="hidden" name="intent" value={slot} />
      <input type="hidden" name="mediaId" value={m.id} />
      <input type="hidden" name="chosen" value={String(!chosen)} />
      <button type="submit" className={buttonClasses("outline", "sm")}>
        {label}
      </button>
    </fetcher.Form>
  );
}
