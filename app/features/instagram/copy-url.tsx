import { Check, Copy } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "~/components/ui/button";
import { inputClasses } from "~/components/ui/field";
import { useToast } from "~/components/ui/toast";

/** A read-only URL with a copy button (also selectable by hand, e.g. without JavaScript). */
export function CopyUrl({ label, url }: { label: string; url: string }) {
  const id = useId();
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={url}
          className={`${inputClasses} font-mono text-sm`}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          variant="outline"
          className="shrink-0"
          aria-label={`Copy ${label}`}
          onClick={async () => {
            try {
              await navigator.clipboard.writeText(url);
              setCopied(true);
              setTimeout(() => setCopied(false), 2000);
              toast({ title: "Copied!", description: `${label} copied to clipboard.` });
            } catch {
              toast({
                title: "Error",
                description: "Could not copy the link. Please copy it by hand.",
                variant: "destructive",
              });
            }
          }}
        >
          {copied ? (
            <Check aria-hidden className="h-4 w-4" />
          ) : (
            <Copy aria-hidden className="h-4 w-4" />
          )}
          <span className="hidden sm:inline">{copied ? "Copied" : "Copy"}</span>
        </Button>
      </div>
    </div>
  );
}
