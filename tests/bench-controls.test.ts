import { describe, expect, it } from "vitest";
import { markupOnly } from "../bench/controls";

describe("markupOnly", () => {
  const page = [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/>',
    '<link rel="modulepreload" href="/assets/a.js"/><style nonce="n">p{color:red}</style>',
    '<script nonce="n">(function(){ var a = "</p>"; })()</script></head>',
    '<body><main><p>Lily Chen</p><img src="/files/avatars/x.webp" alt=""/></main>',
    '<script nonce="n" type="module-after-paint">import "/assets/a.js";</script>',
    "<script>window.__reactRouterContext = {};</script></body></html>",
  ].join("");
  const markup = markupOnly(page, "http://127.0.0.1:4000");

  it("takes out every script element and module preload, whatever its type", () => {
    expect(markup).not.toMatch(/<script|modulepreload|__reactRouterContext|\(function/);
  });

  it("keeps the page's own markup and styles", () => {
    expect(markup).toContain('<style nonce="n">p{color:red}</style>');
    expect(markup).toContain(
      '<main><p>Lily Chen</p><img src="/files/avatars/x.webp" alt=""/></main>',
    );
  });

  it("resolves the page's relative addresses against the app", () => {
    expect(markup).toContain('<head><base href="http://127.0.0.1:4000/">');
  });
});
