import { PRIVATE_CACHE_CONTROL } from "~/lib/cache-headers";

/** Our account cookies all start with "gigledger." (better-auth's prefix, __Secure- over https). */
const ACCOUNT_COOKIE = /(?:^|;\s*)(?:__Secure-)?gigledger\./;

/**
 * The last word on whether a page or data answer may sit in a shared cache. Routes that may be
 * shared say so (`publicPageHeaders`); this makes every answer private when the request carries
 * an account cookie, the answer sets a cookie (a toast, a sign-in), or it is not a plain 200.
 * Answers that said nothing about caching (signed-in pages, forms) are private as well. Built
 * assets and uploaded files keep their own immutable caching.
 */
export function applyCachePolicy(request: Request, response: Response) {
  const headers = response.headers;
  const declared = headers.get("Cache-Control");
  if (declared?.includes("immutable")) return;
  const shared =
    declared?.includes("public") &&
    (request.method === "GET" || request.method === "HEAD") &&
    response.status === 200 &&
    !ACCOUNT_COOKIE.test(request.headers.get("Cookie") ?? "") &&
    !headers.has("Set-Cookie");
  if (shared) {
    if (!/\bcookie\b/i.test(headers.get("Vary") ?? "")) headers.append("Vary", "Cookie");
    return;
  }
  headers.set("Cache-Control", PRIVATE_CACHE_CONTROL);
}
