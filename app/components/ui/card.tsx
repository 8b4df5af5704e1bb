import type { HTMLAttributes } from "react";

type CardPadding = "none" | "sm" | "md" | "lg" | "fluid";
/** "section": a block of a page (larger radius); "item": one of many in a list or grid. */
type CardVariant = "section" | "item";

const paddings: Record<CardPadding, string> = {
  none: "",
  sm: "p-4",
  md: "p-5",
  lg: "p-6",
  fluid: "p-4 sm:p-6",
};
const radii: Record<CardVariant, string> = { section: "rounded-2xl", item: "rounded-xl" };

/**
 * Classes of the white bordered box, for elements that cannot be a Card (e.g. a whole-card Link).
 * `min-w-0` lets the card shrink inside a grid or flex row, so long content wraps instead of
 * widening the page.
 */
export function cardClasses(
  { padding = "lg", variant = "section" }: { padding?: CardPadding; variant?: CardVariant } = {},
  extra = "",
) {
  return `min-w-0 ${radii[variant]} border border-slate-200 bg-white ${paddings[padding]} ${extra}`.trim();
}

type CardProps = HTMLAttributes<HTMLElement> & {
  as?: "div" | "section" | "article" | "header" | "aside" | "li";
  padding?: CardPadding;
  variant?: CardVariant;
};

/** The white bordered box that holds a section or an item. Give a `section` an accessible name. */
export function Card({ as: Tag = "div", padding, variant, className = "", ...props }: CardProps) {
  return <Tag className={cardClasses({ padding, variant }, className)} {...props} />;
}
