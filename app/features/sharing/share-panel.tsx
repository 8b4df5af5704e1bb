import Link2 from "lucide-react/icons/link-2";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { CopyField } from "~/components/ui/copy-field";
import { Field } from "~/components/ui/field";
import { Spinner } from "~/components/ui/spinner";
import type { SharingMode } from "~/features/music-sessions/music-sessions.policy";
import type { FormReply } from "~/lib/form";
import { usePending } from "~/lib/use-pending";
import { useToastOn } from "~/lib/use-toast-on";

/** What the share action answers: the new link as the reply's value. */
export type ShareReply = FormReply<{ url: string; maxUses: number | null }>;

/** 'Share Session': a link of shape {origin}/join-session/{token}, optionally with max uses. */
export function SharePanel({
  sessionId,
  mode,
  fallback,
}: {
  sessionId: string;
  mode: SharingMode;
  /** The result of a submit made without JavaScript. */
  fallback?: ShareReply;
}) {
  const fetcher = useFetcher<ShareReply>();
  const result = fetcher.data ?? fallback;
  useToastOn(result, result?.toast);
  const busy = usePending({ fetcher });
  return (
    <section
      aria-labelledby="share-title"
      className="rounded-xl border border-brand-100 bg-brand-50/50 p-4"
    >
      <h2 id="share-title" className="flex items-center gap-2 font-semibold">
        <Link2 aria-hidden className="h-4 w-4" /> Share Session
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {mode === "collaboration"
          ? "This session is still ahead: artists who open the link can join it as collaborators."
          : "This session has taken place: artists who played with you can open the link and verify it."}{" "}
        The link expires in 7 days.
      </p>
      <fetcher.Form
        method="post"
        // Without JavaScript the page comes back with this panel open and the new link in it.
        action={`/sessions/${sessionId}?panel=share`}
        className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end"
        noValidate
      >
        <input type="hidden" name="intent" value="share" />
        <Field
          label="Max uses (optional)"
          name="maxUses"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          placeholder="Unlimited"
          hint="Leave empty for unlimited uses."
          error={result?.fieldErrors?.maxUses}
          className="sm:w-56"
        />
        <Button type="submit" disabled={busy} className="sm:mb-6">
          {busy ? <Spinner /> : null} Generate Link
        </Button>
      </fetcher.Form>
      {result?.value ? (
        <CopyField
          id="share-link"
          label="Sharing link"
          value={result.value.url}
          className="mt-3"
          copiedText="Copied!"
          copiedToast={{ title: "Copied!", description: "Sharing link copied to clipboard." }}
          hint={<>Expires in 7 days · {usesText(result.value.maxUses)}</>}
        />
      ) : null}
    </section>
  );
}

function usesText(maxUses: number | null) {
  if (maxUses === null) return "unlimited uses";
  return `up to ${maxUses} ${maxUses === 1 ? "use" : "uses"}`;
}
