// The stylesheet written into each page (see page-styles.tsx); never part of a browser file.
import css from "~/app.css?inline";
import { markupClasses, parseStylesheet, usedStyles } from "./used-styles.server";

/**
 * What the page's `<style>` holds while the page renders: the page's own rules are only known
 * once its markup is, so `withPageStyles` puts them in afterwards.
 */
export const PAGE_STYLES_SLOT = "/*page-styles*/";

const sheet = parseStylesheet(css);

/**
 * The rendered page with the stylesheet rules its markup uses in its `<style>` (decision 023).
 * In development the whole stylesheet goes in: there the browser does not load it as a file, and
 * Tailwind rebuilds it as classes are added.
 */
export function withPageStyles(html: string): string {
  // Found with the tag that closes it: a page's text may hold the slot's words (an artist's name
  // in the title), but never a "</style>", which React escapes.
  const slot = html.indexOf(`${PAGE_STYLES_SLOT}</style>`);
  if (slot === -1) return html;
  const styles = import.meta.env.DEV ? css : usedStyles(sheet, markupClasses(html));
  return html.slice(0, slot) + styles + html.slice(slot + PAGE_STYLES_SLOT.length);
}
