import { describe, expect, it } from "vitest";
import { HELD_SCRIPT_TYPE, withScriptsAfterPaint } from "./scripts-after-paint.server";

// The shape of a page as React Router's <Scripts> and React write it (preload links hoisted).
const page = (title = "Discover") =>
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><title>${title}</title>` +
  `<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="n0nce"/>` +
  `<link rel="modulepreload" href="/assets/root-B.js" nonce="n0nce"/>` +
  `<style nonce="n0nce">p{color:red}</style></head><body><main><p>${title}</p></main>` +
  `<script nonce="n0nce">window.__reactRouterContext = {};</script>` +
  `<script nonce="n0nce" type="module" async="">import * as route0 from "/assets/root-B.js";</script>` +
  `</body></html>`;

describe("withScriptsAfterPaint", () => {
  it("holds the module script and moves its preloads into the loader in the <head>", () => {
    const out = withScriptsAfterPaint(page());
    expect(out).not.toContain('rel="modulepreload"');
    expect(out).not.toContain('type="module"');
    expect(out).toContain(
      `<script nonce="n0nce" type="${HELD_SCRIPT_TYPE}">import * as route0 from "/assets/root-B.js";</script>`,
    );
    // The loader closes the <head>, after the page's styles.
    expect(out).toContain('p{color:red}</style><script nonce="n0nce">(function (hrefs)');
    expect(out).toContain(
      '(["/assets/entry.client-A.js","/assets/root-B.js"])</script></head><body><main>',
    );
    // Everything else is as it was.
    expect(out).toContain('<script nonce="n0nce">window.__reactRouterContext = {};</script>');
  });

  it("leaves the page's own text alone", () => {
    // React escapes "<" in text, so a title can only hold the words, never the tags.
    const title = "type=&quot;module&quot; async=&quot;&quot; rel=&quot;modulepreload&quot;";
    const out = withScriptsAfterPaint(page(title));
    expect(out).toContain(`<title>${title}</title>`);
    expect(out).toContain(`<p>${title}</p>`);
  });

  it("leaves a page without the framework's module script as it is", () => {
    const html = "<html><head></head><body><p>Not found</p></body></html>";
    expect(withScriptsAfterPaint(html)).toBe(html);
  });
});
