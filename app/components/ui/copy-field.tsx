import Check from "lucide-react/icons/check";
import Copy from "lucide-react/icons/copy";
import { type ReactNode, useEffect, useRef, useState } from "react";
import type { ToastInput } from "~/lib/toast";
import { Button } from "./button";
import { FieldFrame, useFieldIds } from "./field";
import { inputClasses } from "./input-classes";
import { useToast } from "./toast";

const COPIED_MS = 2000;

/**
 * A read-only field holding a link, with a Copy button. Without JavaScript the field is still
 * there to select and copy by hand (focusing it selects the whole link); if the clipboard refuses,
 * an error toast asks for exactly that and the link is selected.
 *
 * After a copy the button shows a tick and `copiedText` for two seconds. The success is announced
 * once, politely: by `copiedToast` when one is given (the toast region is a polite live region),
 * otherwise by the field's own live region saying `copiedText`.
 */
export function CopyField({
  label,
  value,
  labelHidden,
  id,
  hint,
  copiedToast,
  buttonText = "Copy",
  copiedText = "Copied",
  buttonLabel,
  compact,
  mono,
  className,
}: {
  label: string;
  value: string;
  labelHidden?: boolean;
  id?: string;
  hint?: ReactNode;
  copiedToast?: ToastInput;
  buttonText?: string;
  copiedText?: string;
  /** The button's accessible name when its text alone is not enough (several copy fields). */
  buttonLabel?: string;
  /** Below 640 px the button shows its icon only. */
  compact?: boolean;
  /** Monospace value, for URLs that are read character by character. */
  mono?: boolean;
  className?: string;
}) {
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const ids = useFieldIds(id, { label, hint });

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      if (copiedToast) toast(copiedToast);
    } catch {
      input.current?.select();
      toast({
        title: "Error",
        description: "Could not copy the link. Please copy it by hand.",
        variant: "destructive",
      });
    }
  };

  const Icon = copied ? Check : Copy;
  const text = copied ? copiedText : buttonText;
  return (
    <FieldFrame label={label} labelHidden={labelHidden} hint={hint} ids={ids} className={className}>
      <div className="flex min-w-0 gap-2">
        <input
          ref={input}
          {...ids.controlProps}
          readOnly
          value={value}
          className={`${inputClasses} min-w-0 flex-1${mono ? " font-mono text-sm" : ""}`}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button
          variant="outline"
          className="shrink-0 whitespace-nowrap"
          aria-label={buttonLabel}
          onClick={copy}
        >
          <Icon aria-hidden className="h-4 w-4" />
          {compact ? <span className="hidden sm:inline">{text}</span> : text}
        </Button>
      </div>
      <span aria-live="polite" className="sr-only">
        {copied && !copiedToast ? copiedText : ""}
      </span>
    </FieldFrame>
  );
}
