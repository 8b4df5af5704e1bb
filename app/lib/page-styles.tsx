import { createContext, useContext } from "react";

/**
 * The app's stylesheet, written into every page's <head> by the server render instead of linked:
 * on a phone's fresh connection a linked stylesheet holds the first paint for another round trip.
 * The server provides the text (app/lib/page-styles.server.ts); in the browser the context is
 * empty and React leaves the server's <style> as it is (its inner HTML is not compared while
 * hydrating, and it never changes afterwards).
 */
export const PageStylesContext = createContext("");

export function PageStyles({ nonce }: { nonce?: string }) {
  const css = useContext(PageStylesContext);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own build's stylesheet
  return <style nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} suppressHydrationWarning />;
}
