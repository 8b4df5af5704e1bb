import { createContext, useContext } from "react";
import stylesheetUrl from "~/app.css?url";

/**
 * The page's stylesheet rules, written into its <head> by the server render instead of linked:
 * on a phone's fresh connection a linked stylesheet holds the first paint for another round trip.
 * Only the rules the page's markup uses go in (app/lib/page-styles.server.ts, decision 023); the
 * server provides a slot for them here. In the browser the context is empty and React leaves the
 * server's <style> as it is (its inner HTML is not compared while hydrating).
 */
export const PageStylesContext = createContext("");

export function PageStyles({ nonce }: { nonce?: string }) {
  const css = useContext(PageStylesContext);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own build's stylesheet
  return <style nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}

/**
 * The whole stylesheet, as a file, for what the page draws after it has loaded: a dialog, a
 * toast, the next page. It is asked for in a task of its own right after this module loads, so it
 * never holds up the page's first paint nor lengthens the task that starts the page's scripts (in
 * development the page's <style> already has it all).
 */
if (!import.meta.env.SSR && import.meta.env.PROD) {
  setTimeout(() => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = stylesheetUrl;
    document.head.append(link);
  });
}
