import { createElement as h } from "react";
import { Link, useLocation } from "react-router";
import { describe, expect, it } from "vitest";
import { renderMarkup } from "./server-markup.server";

const request = (url: string) => new Request(`http://127.0.0.1${url}`);

function Where() {
  const { pathname, search } = useLocation();
  return h("p", null, `${pathname}${search}`);
}

describe("renderMarkup", () => {
  it("resolves links against the address asked for, as they resolve in the page", () => {
    const { __html } = renderMarkup(
      request("/artist-discovery?genre=Jazz"),
      h("nav", null, h(Link, { to: "?genre=Jazz&page=2" }, "Next"), h(Link, { to: "/" }, "Home")),
    );
    expect(__html).toBe(
      // data-discover: React Router finds these links' routes ahead, as it does for its own.
      '<nav><a href="/artist-discovery?genre=Jazz&amp;page=2" data-discover="true">Next</a>' +
        '<a href="/" data-discover="true">Home</a></nav>',
    );
  });

  it("gives components the page's location (a data request's address has no .data)", () => {
    expect(renderMarkup(request("/artist/asha?month=2026-12"), h(Where)).__html).toBe(
      "<p>/artist/asha?month=2026-12</p>",
    );
  });

  it("escapes what people typed: markup in a value stays text", () => {
    const { __html } = renderMarkup(
      request("/"),
      h("p", { title: '"><script>' }, "<img src=x onerror=alert(1)>"),
    );
    expect(__html).toBe(
      '<p title="&quot;&gt;&lt;script&gt;">&lt;img src=x onerror=alert(1)&gt;</p>',
    );
    expect(__html).not.toContain("<img");
  });
});
