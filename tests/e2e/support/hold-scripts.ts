import type { Page } from "@playwright/test";
import { whenHydrated } from "./fixtures";

const SCRIPTS = "**/assets/*.js";

/**
 * Holds back the page's requests for `url` (a glob, as `page.route` takes) from now on. The
 * function it returns lets them through, the held ones and any later ones.
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Holds the page's scripts back (they start after the first paint, decision 024), so that a test
 * can act on the server-drawn page before React owns it, as a person on a slow phone can. Call it
 * before `goto`, and navigate with `waitUntil: "domcontentloaded"`: scripts the page asks for
 * before its load event hold that event back, so waiting for "load" can wait on the held scripts.
 * The function it returns lets the scripts run, then waits until the page has hydrated and its
 * network is quiet.
 */
export async function holdScripts(page: Page): Promise<() => Promise<void>> {
  const release = await holdRequests(page, SCRIPTS);
  return async () => {
    release();
    await whenHydrated(page);
    await page.waitForLoadState("networkidle");
    // Nothing is in flight any more: no held request is left to its handler.
    await page.unroute(SCRIPTS);
  };
}
