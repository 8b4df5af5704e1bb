import { UNSAFE_useScrollRestoration as useScrollRestoration } from "react-router";

/**
 * Runs where it stands, before the first paint, as React Router's own script does: a new history
 * entry gets the key the router files its scroll position under; an entry that has one (a reload,
 * a return to this document) gets its position back. Unlike React Router's, it does not open
 * sessionStorage for a new entry, where nothing can be stored yet: opening it asks the browser
 * process and took 3–10 ms of a cold load's main thread in Chromium here. It also writes the
 * router's `idx` (the entry's place among this document's, 0 for a new one), so the router finds
 * the entry ready and does not write it again as it starts: one history write instead of two, each
 * a few milliseconds. The router keeps the positions under its default sessionStorage key, named at
 * the end. A new entry's write waits for a task of its own (a timer), out of the parsing task:
 * Chromium answers a history write by looking over the page's form fields, and a date field
 * (discovery's filters) made that 4–5 ms of CPU here; the write is skipped if the router has
 * started first and written the entry itself.
 */
const RESTORE_SCROLL = `(function(k){var h=history,s=h.state;if(!s||!s.key){setTimeout(function(){s=h.state;if(!s||!s.key)h.replaceState({key:Math.random().toString(32).slice(2),idx:0},"")});return}try{var y=JSON.parse(sessionStorage.getItem(k)||"{}")[s.key];if(typeof y=="number")scrollTo(0,y)}catch(e){sessionStorage.removeItem(k)}})("react-router-scroll-positions")`;

/**
 * React Router's `<ScrollRestoration>`: the router keeps and restores scroll positions across
 * navigations, and the inline script restores a reloaded page's before it is drawn. The script's
 * text is sent by the server only; the browser keeps what it was sent.
 */
export function ScrollRestoration({ nonce }: { nonce: string | undefined }) {
  useScrollRestoration();
  return (
    <script
      nonce={nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours, with no value from a request in it
      dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? RESTORE_SCROLL : "" }}
    />
  );
}
