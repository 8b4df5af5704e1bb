import { Copy, Share2 } from "lucide-react";
import { Button } from "~/components/ui/button";
import { inputClasses } from "~/components/ui/field";
import { useToast } from "~/components/ui/toast";

async function copy(text: string) {
  await navigator.clipboard.writeText(text);
}

/** Share uses the device's share sheet when there is one, otherwise copies the link. */
export function ShareButton({ url, title }: { url: string; title: string }) {
  const toast = useToast();
  return (
    <Button
      variant="outline"
      onClick={async () => {
        if (typeof navigator.share === "function") {
          try {
            await navigator.share({ title, url });
            return;
          } catch (error) {
            if ((error as DOMException).name === "AbortError") return;
          }
        }
        try {
          await copy(url);
          toast({ title: "Link Copied!", description: "Profile link copied to clipboard." });
        } catch {
          toast({
            title: "Error",
            description: "Could not copy the link. Please copy it by hand.",
            variant: "destructive",
          });
        }
      }}
    >
      <Share2 aria-hidden className="h-4 w-4" /> Share
    </Button>
  );
}

export function ProfileLink({ url }: { url: string }) {
  const toast = useToast();
  return (
    <div className="flex gap-2">
      <label htmlFor="profile-link" className="sr-only">
        Your profile link
      </label>
      <input
        id="profile-link"
        readOnly
        value={url}
        className={inputClasses}
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button
        variant="outline"
        className="shrink-0 whitespace-nowrap"
        onClick={async () => {
          try {
            await copy(url);
            toast({ title: "Link Copied!", description: "Profile link copied to clipboard." });
          } catch {
            toast({
              title: "Error",
              description: "Could not copy the link. Please copy it by hand.",
              variant: "destructive",
            });
          }
        }}
      >
        <Copy aria-hidden className="h-4 w-4" /> Copy Link
      </Button>
    </div>
  );
}
