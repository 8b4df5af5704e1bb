import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router";
import type { AppContext } from "./context";
import type { Markup } from "./markup";

/**
 * Renders the parts of a page that need no JavaScript to markup, in a loader: the route shows it
 * with `<ServerMarkup>`, so their components stay on the server (decision 022). Links resolve
 * against the address asked for, as they would in the page. The components must not use a data
 * router's hooks (`useNavigation`, `useFetcher`, `<Form>`): use plain links and forms.
 *
 * For a whole page the markup is kept in `context.pageMarkup` and the loader data holds only its
 * key: the page carries it once, in its HTML, where the browser picks it up. A `.data` request
 * (a page reached on the client) gets the markup itself.
 */
export function renderMarkup(
  { request, context }: { request: Request; context: Pick<AppContext, "pageMarkup"> },
  node: ReactNode,
): Markup {
  const url = new URL(request.url);
  const html = renderToStaticMarkup(
    <StaticRouter location={url.pathname + url.search}>{node}</StaticRouter>,
  );
  const kept = context.pageMarkup;
  if (!kept) return { __html: html };
  const key = `m${kept.size}`;
  kept.set(key, html);
  return { key };
}
