import Share2 from "lucide-react/icons/share-2";
import type { ToastInput } from "~/lib/toast";
import { Button, type ButtonSize } from "./button";
import { useToast } from "./toast";

/**
 * Share a link with the device's share sheet, or copy it. Resolves to what happened;
 * 'cancelled' when the person closed the share sheet.
 */
async function shareOrCopy(url: string, title: string) {
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title, url });
      return "shared" as const;
    } catch (error) {
      if ((error as DOMException).name === "AbortError") return "cancelled" as const;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return "copied" as const;
  } catch {
    return "failed" as const;
  }
}

/**
 * Shares a link (the device's share sheet, or a copy) and tells the person what happened:
 * `copiedToast` once copied, an error when copying was refused. Resolves to true once the link
 * was shared or copied (not when cancelled or refused).
 */
export function useShareLink(copiedToast: ToastInput) {
  const toast = useToast();
  return async (url: string, title: string) => {
    const result = await shareOrCopy(url, title);
    if (result === "failed")
      toast({
        title: "Error",
        description: "Could not copy the link. Please copy it by hand.",
        variant: "destructive",
      });
    if (result === "copied") toast(copiedToast);
    return result === "shared" || result === "copied";
  };
}

const shareLabel = (
  <>
    <Share2 aria-hidden className="h-4 w-4" /> Share
  </>
);

/** 'Share' (see `useShareLink`); `onShared` runs once the link was shared or copied. */
export function ShareButton({
  url,
  title,
  copiedToast,
  size,
  onShared,
}: {
  url: string;
  title: string;
  copiedToast: ToastInput;
  size?: ButtonSize;
  onShared?: () => void;
}) {
  const share = useShareLink(copiedToast);
  return (
    <Button
      variant="outline"
      size={size}
      onClick={async () => {
        if (await share(url, title)) onShared?.();
      }}
    >
      {shareLabel}
    </Button>
  );
}

/**
 * The same button inside server markup (decision 022), where the page's `share` action does
 * what `ShareButton`'s click does.
 */
export function ShareButtonMarkup({ size }: { size?: ButtonSize }) {
  return (
    <Button variant="outline" size={size} data-action="share">
      {shareLabel}
    </Button>
  );
}
