import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router";
import type { Markup } from "~/components/ui/server-markup";

/**
 * Renders the parts of a page that need no JavaScript to markup, in a loader: the route shows it
 * with `<ServerMarkup>`, so their components stay on the server (decision 022). Links resolve
 * against the address asked for, as they would in the page. The components must not use a data
 * router's hooks (`useNavigation`, `useFetcher`, `<Form>`): use plain links and forms.
 */
export function renderMarkup(request: Request, node: ReactNode): Markup {
  const url = new URL(request.url);
  return {
    __html: renderToStaticMarkup(
      <StaticRouter location={url.pathname + url.search}>{node}</StaticRouter>,
    ),
  };
}
