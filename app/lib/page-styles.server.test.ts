import { describe, expect, it } from "vitest";
import { PAGE_STYLES_SLOT, withPageStyles } from "./page-styles.server";

describe("withPageStyles", () => {
  it("fills the <style> slot, not the same words in the page's text", () => {
    const title = `<title>${PAGE_STYLES_SLOT} | GigLedger</title>`;
    const html = `<html><head>${title}<style>${PAGE_STYLES_SLOT}</style></head><body><p class="p-4">${PAGE_STYLES_SLOT}</p></body></html>`;
    const out = withPageStyles(html);
    expect(out).toContain(title);
    expect(out).toContain(`<p class="p-4">${PAGE_STYLES_SLOT}</p>`);
    expect(out).not.toContain(`${PAGE_STYLES_SLOT}</style>`);
  });

  it("leaves a page without the slot as it is", () => {
    expect(withPageStyles("<p>no styles here</p>")).toBe("<p>no styles here</p>");
  });
});
