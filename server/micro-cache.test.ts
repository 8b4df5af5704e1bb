import { describe, expect, it } from "vitest";
import { createMicroCache } from "./micro-cache";

const PUBLIC = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
const page = (body: string, cacheControl = PUBLIC, status = 200) =>
  new Response(body, { status, headers: { "Cache-Control": cacheControl, Vary: "Cookie" } });
const get = (url = "http://app.test/artist/a", cookie?: string) =>
  new Request(url, cookie ? { headers: { Cookie: cookie } } : {});

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("microcache", () => {
  it("serves a shareable page again within a second, with the nonce it was rendered with", async () => {
    const time = clock();
    const cache = createMicroCache(time.now);
    const sent = await cache.keep(get(), page("<p>profile</p>"), "nonce-1");
    expect(await sent.text()).toBe("<p>profile</p>");

    time.advance(900);
    const hit = cache.lookup(get());
    expect(hit?.nonce).toBe("nonce-1");
    expect(await hit?.response.text()).toBe("<p>profile</p>");
    expect(hit?.response.headers.get("Cache-Control")).toBe(PUBLIC);
    // Each copy has its own body.
    expect(await cache.lookup(get())?.response.text()).toBe("<p>profile</p>");

    time.advance(200);
    expect(cache.lookup(get())).toBeNull();
  });

  it.each([
    ["a private answer", get(), page("x", "private, no-store")],
    ["a 404", get(), page("x", PUBLIC, 404)],
    ["a signed-in request", get(undefined, "gigledger.session_token=abc"), page("x")],
    ["a request carrying a toast", get(undefined, "gl_toast=e30"), page("x")],
    ["a POST", new Request("http://app.test/artist/a", { method: "POST" }), page("x")],
  ])("does not keep %s", async (_label, request, response) => {
    const cache = createMicroCache();
    expect(await (await cache.keep(request, response, "n")).text()).toBe("x");
    expect(cache.size).toBe(0);
  });

  it("never serves a kept page to a signed-in visitor, and forgets everything on clear()", async () => {
    const cache = createMicroCache();
    await cache.keep(get(), page("anonymous view"), "n");
    expect(cache.lookup(get(undefined, "__Secure-gigledger.session_token=abc"))).toBeNull();
    expect(cache.lookup(get(undefined, "theme=dark"))).not.toBeNull();
    cache.clear();
    expect(cache.lookup(get())).toBeNull();
  });

  it("keeps pages by their whole address", async () => {
    const cache = createMicroCache();
    await cache.keep(get("http://app.test/artist/a?month=2026-12"), page("december"), "n");
    expect(cache.lookup(get("http://app.test/artist/a"))).toBeNull();
    expect(await cache.lookup(get("http://app.test/artist/a?month=2026-12"))?.response.text()).toBe(
      "december",
    );
  });
});
