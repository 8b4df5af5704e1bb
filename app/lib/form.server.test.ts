import { describe, expect, it } from "vitest";
import { notFoundText } from "./form.server";

describe("notFoundText", () => {
  it("answers 404 in plain text with the sentence, never cached", async () => {
    const res = notFoundText("This artist has no verified sessions yet.");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe("This artist has no verified sessions yet.\n");
  });

  it('says "Not found" when not told more', async () => {
    expect(await notFoundText().text()).toBe("Not found\n");
  });
});
