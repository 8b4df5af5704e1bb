import Share2 from "lucide-react/icons/share-2";
import { Button, type ButtonSize } from "./button";
import { type ToastInput, useToast } from "./toast";

/**
 * Share a link with the device's share sheet, or copy it. Resolves to what happened;
 * 'cancelled' when the person closed the share sheet.
 */
export async function shareOrCopy(url: string, title: string) {
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
 * 'Share': the device's share sheet where there is one, otherwise the link is copied and
 * `copiedToast` says so. `onShared` runs once the link was shared or copied (not when cancelled
 * or refused).
 */
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
  const toast = useToast();
  return (
    <Button
      variant="outline"
      size={size}
      onClick={async () => {
        const result = await shareOrCopy(url, title);
        if (result === "cancelled") return;
        if (result === "failed") {
          toast({
            title: "Error",
            description: "Could not copy the link. Please copy it by hand.",
            variant: "destructive",
          });
          return;
        }
        if (result === "copied") toast(copiedToast);
        onShared?.();
      }}
    >
      <Share2 aria-hidden className="h-4 w-4" /> Share
    </Button>
  );
}
