import { createContext, useContext, useEffect, useState } from "react";
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

let whole: Promise<unknown> | undefined;

/**
 * `loading` (or nothing), settled once the whole stylesheet, as a file, has loaded too (or failed
 * to). The file is for what the page draws after it has loaded: a dialog, a toast, the next page
 * (decision 028). Adding it makes the browser restyle and lay out the whole page again, so a page
 * only read never asks for it: it is asked for at the first sign of use (a pointer over the page,
 * a touch, a key, the focus), and whatever the browser draws that the server did not waits for it
 * through this. In development the page's <style> already has it all.
 */
export function withWholeStylesheet<T = undefined>(loading?: Promise<T>): Promise<T> {
  if (!import.meta.env.SSR && import.meta.env.PROD)
    whole ??= new Promise((settle) => {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = stylesheetUrl;
      link.onload = link.onerror = settle;
      document.head.append(link);
    });
  return Promise.all([loading, whole]).then(([value]) => value as T);
}

if (!import.meta.env.SSR && import.meta.env.PROD) {
  for (const type of ["pointerover", "pointerdown", "keydown", "focusin"])
    addEventListener(type, () => withWholeStylesheet(), { capture: true, once: true });
}

/**
 * False in the server render and while hydrating; true once the whole stylesheet has loaded (asked
 * for here if it was not yet). A part that only the browser draws, whose classes the server's
 * page rules therefore lack, waits for it: drawn before, it would stay unstyled on a page opened
 * and only read (decision 028).
 */
export function useWholeStylesheet() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let mounted = true;
    withWholeStylesheet().then(() => {
      if (mounted) setLoaded(true);
    });
    return () => {
      mounted = false;
    };
  }, []);
  return loaded;
}
