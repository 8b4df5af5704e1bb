import { CopyField } from "~/components/ui/copy-field";

/** A read-only URL with a copy button (also selectable by hand, e.g. without JavaScript). */
export function CopyUrl({ label, url }: { label: string; url: string }) {
  return (
    <CopyField
      label={label}
      value={url}
      mono
      compact
      buttonLabel={`Copy ${label}`}
      copiedToast={{ title: "Copied!", description: `${label} copied to clipboard.` }}
    />
  );
}
