import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, Link, RouterProvider, useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { PageMarkupContext, ServerMarkup } from "~/components/ui/server-markup";
import type { Markup } from "./markup";
import { renderMarkup } from "./server-markup.server";

/** What a loader gets for a `.data` request: no page to keep the markup in. */
const dataRequest = (url: string) => ({
  request: new Request(`http://127.0.0.1${url}`),
  context: {},
});
const htmlOf = (markup: Markup) => {
  if (!("__html" in markup)) throw new Error("expected the markup itself");
  return markup.__html;
};

function Where() {
  const { pathname, search } = useLocation();
  return h("p", null, `${pathname}${search}`);
}

describe("renderMarkup", () => {
  it("resolves links against the address asked for, as they resolve in the page", () => {
    const markup = renderMarkup(
      dataRequest("/artist-discovery?genre=Jazz"),
      h("nav", null, h(Link, { to: "?genre=Jazz&page=2" }, "Next"), h(Link, { to: "/" }, "Home")),
    );
    expect(htmlOf(markup)).toBe(
      // data-discover: React Router finds these links' routes ahead, as it does for its own.
      '<nav><a href="/artist-discovery?genre=Jazz&amp;page=2" data-discover="true">Next</a>' +
        '<a href="/" data-discover="true">Home</a></nav>',
    );
  });

  it("gives components the page's location (a data request's address has no .data)", () => {
    expect(htmlOf(renderMarkup(dataRequest("/artist/asha?month=2026-12"), h(Where)))).toBe(
      "<p>/artist/asha?month=2026-12</p>",
    );
  });

  it("escapes what people typed: markup in a value stays text", () => {
    const html = htmlOf(
      renderMarkup(
        dataRequest("/"),
        h("p", { title: '"><script>' }, "<img src=x onerror=alert(1)>"),
      ),
    );
    expect(html).toBe('<p title="&quot;&gt;&lt;script&gt;">&lt;img src=x onerror=alert(1)&gt;</p>');
  });

  it("on a whole page, keeps the markup out of the loader data and writes it into the page once", () => {
    const pageMarkup = new Map<string, string>();
    const page = { request: new Request("http://127.0.0.1/"), context: { pageMarkup } };
    const first = renderMarkup(page, h("p", null, "Header"));
    const second = renderMarkup(page, h("p", null, "Body"));
    expect(first).toEqual({ key: "m0" });
    expect(second).toEqual({ key: "m1" });
    expect(JSON.stringify([first, second])).not.toContain("<p>");

    const router = createMemoryRouter([
      { path: "/", element: h(ServerMarkup, { markup: second }) },
    ]);
    const rendered = renderToStaticMarkup(
      h(PageMarkupContext.Provider, { value: pageMarkup }, h(RouterProvider, { router })),
    );
    expect(rendered).toBe('<div data-markup="m1"><p>Body</p></div>');
  });
});
