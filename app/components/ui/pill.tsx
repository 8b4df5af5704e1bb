import type { LucideIcon } from "lucide-react";
import type { HTMLAttributes, ReactNode } from "react";

export type PillTone = "neutral" | "brand" | "success" | "warning" | "danger";
type PillSize = "xs" | "sm" | "md";

const tones: Record<PillTone, string> = {
  neutral: "bg-slate-100 text-slate-800",
  brand: "bg-brand-50 text-brand-900",
  success: "bg-emerald-50 text-emerald-800",
  warning: "bg-amber-50 text-amber-900",
  danger: "bg-red-50 text-red-800",
};
const sizes: Record<PillSize, string> = {
  xs: "px-2.5 py-0.5 text-xs",
  sm: "px-2.5 py-0.5 text-sm",
  md: "px-3 py-1 text-sm",
};

/** Classes of a pill, for elements that cannot be a Pill (e.g. a toggle button). */
function pillClasses(tone: PillTone = "neutral", size: PillSize = "xs", extra = "") {
  return `inline-flex max-w-full items-center gap-1 rounded-full ${tones[tone]} ${sizes[size]} ${extra}`.trim();
}

type PillProps = HTMLAttributes<HTMLElement> & {
  as?: "span" | "li";
  tone?: PillTone;
  size?: PillSize;
  icon?: LucideIcon;
};

/** A rounded label: a status, a genre, a location. Long text wraps inside the pill. */
export function Pill({
  as: Tag = "span",
  tone,
  size,
  icon: Icon,
  className,
  children,
  ...props
}: PillProps) {
  return (
    <Tag className={pillClasses(tone, size, className)} {...props}>
      {Icon ? (
        <Icon aria-hidden className={size === "xs" ? "h-3.5 w-3.5 shrink-0" : "h-4 w-4 shrink-0"} />
      ) : null}
      <span className="min-w-0 wrap-anywhere">{children}</span>
    </Tag>
  );
}

/** Up to `max` items, and how many are left for '+N more'. */
export function visiblePills(items: readonly string[], max = Number.POSITIVE_INFINITY) {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

/**
 * A wrapping list of pills named by `label` (genres, instruments, the facts about an artist).
 * `items` become pills of one tone, at most `max` of them followed by '+N more'; `children`
 * (Pills rendered `as="li"`) come after them, for pills of their own tone or icon.
 */
export function PillList({
  label,
  items = [],
  max,
  tone,
  size,
  className = "gap-2",
  children,
}: {
  label: string;
  items?: readonly string[];
  max?: number;
  tone?: PillTone;
  size?: PillSize;
  /** Spacing and margins of the list; "gap-2" unless given. */
  className?: string;
  children?: ReactNode;
}) {
  const { shown, more } = visiblePills(items, max);
  return (
    <ul aria-label={label} className={`flex min-w-0 flex-wrap ${className}`}>
      {shown.map((item) => (
        <Pill as="li" key={item} tone={tone} size={size}>
          {item}
        </Pill>
      ))}
      {more > 0 ? <li className="px-1 py-0.5 text-xs text-slate-500">+{more} more</li> : null}
      {children}
    </ul>
  );
}
