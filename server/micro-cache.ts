/**
 * A one-second memory of the public pages anonymous visitors ask for most (a "microcache"): under
 * load, a profile or discovery page is rendered about once a second instead of for every visitor,
 * while nobody sees data older than that. It holds only answers `applyCachePolicy` left
 * shareable (anonymous, 200, no cookie set), serves them only to requests without our cookies,
 * and forgets everything whenever this instance takes a write (any POST, PUT, PATCH or DELETE),
 * so a change is visible at once to the next reader here and within a second on other instances.
 * A served copy keeps the CSP nonce it was rendered with, so its inline scripts still run.
 */
const TTL_MS = 1_000;
const MAX_ENTRIES = 500;
const MAX_BODY_BYTES = 1024 * 1024;

/** Our cookies: better-auth's (prefix "gigledger.", __Secure- over https) and the toast's. */
const OUR_COOKIE = /(?:^|;\s*)(?:__Secure-)?(?:gigledger\.|gl_)/;

type Entry = {
  at: number;
  nonce: string;
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
};

export type MicroCache = ReturnType<typeof createMicroCache>;

export function createMicroCache(now: () => number = Date.now) {
  const entries = new Map<string, Entry>();

  const keyOf = (request: Request) =>
    (request.method === "GET" || request.method === "HEAD") &&
    !OUR_COOKIE.test(request.headers.get("Cookie") ?? "")
      ? request.url
      : null;

  return {
    /** A fresh copy for this request, with the nonce it was rendered with, or null. */
    lookup(request: Request): { response: Response; nonce: string } | null {
      const key = keyOf(request);
      const entry = key ? entries.get(key) : undefined;
      if (!entry || now() - entry.at > TTL_MS) return null;
      const body = request.method === "HEAD" ? null : entry.body.slice(0);
      return {
        response: new Response(body, { status: entry.status, headers: entry.headers }),
        nonce: entry.nonce,
      };
    },

    /** Remembers a shareable answer; returns the response to send (the body read once). */
    async keep(request: Request, response: Response, nonce: string): Promise<Response> {
      const key = keyOf(request);
      const shareable = response.headers.get("Cache-Control")?.includes("public");
      // An answer already encoded for this client (the stored gzipped CV) is not kept: the key is
      // the address alone, and the next client may not accept that encoding.
      const encoded = response.headers.has("Content-Encoding");
      if (!key || !shareable || encoded || request.method !== "GET" || response.status !== 200) {
        return response;
      }
      const body = await response.arrayBuffer();
      if (body.byteLength <= MAX_BODY_BYTES) {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value ?? "");
        entries.set(key, {
          at: now(),
          nonce,
          status: response.status,
          headers: [...response.headers],
          body,
        });
      }
      return new Response(body.slice(0), { status: response.status, headers: response.headers });
    },

    /** Forgets everything: called on every write this instance handles. */
    clear() {
      entries.clear();
    },

    get size() {
      return entries.size;
    },
  };
}
