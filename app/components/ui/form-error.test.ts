import { createElement, Fragment } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FormError } from "./field";

const render = (...children: unknown[]) =>
  renderToStaticMarkup(createElement(FormError, null, ...(children as [])));

describe("FormError", () => {
  it("draws no box when there is nothing to say", () => {
    expect(render()).toBe("");
    expect(render(undefined)).toBe("");
    expect(render("")).toBe("");
    // A form's error beside an optional link, both absent.
    expect(render(undefined, false)).toBe("");
    expect(render(null, "", false)).toBe("");
  });

  it("draws the box around what there is", () => {
    expect(render("Please try again.")).toContain(">Please try again.</p>");
    expect(render(undefined, createElement(Fragment, null, " ", "View your request"))).toContain(
      "View your request",
    );
  });
});
