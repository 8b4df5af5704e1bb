import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { ProfileDraftSchema } from "./artists.schema";
import { profileDraftCookies, readProfileDraft } from "./profile-draft.server";

/**
 * What a newcomer types into profile set-up survives signing up and the confirmation mail's
 * new tab (decision 040): it is kept in this browser's cookies for /profile-setup, and the page is
 * drawn with it by the server, so it also holds without JavaScript.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

const TYPED = {
  artistName: "Mira Sen Trio",
  genre: "Carnatic fusion",
  location: "Pune",
  bio: "Violin & voice, <late> sets by the river.",
  experience: "6 years",
  instruments: "Violin, Vocals",
  hourlyRate: "2500",
  instagram: "https://instagram.com/mirasen",
  youtube: "",
  facebook: "",
  timeZone: "Asia/Kolkata",
};

function post(body: Record<string, string>, cookie = "", to = "/profile-setup") {
  return app.request(to, {
    method: "POST",
    body: new URLSearchParams(body),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: app.env.appUrl.origin,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    redirect: "manual",
  });
}

/** The draft cookies a response sets, as a Cookie header a later request sends. */
const draftCookie = (res: Response) =>
  res.headers
    .getSetCookie()
    .filter((c) => c.startsWith("gl_profile_draft.") && !/Max-Age=0/.test(c))
    .map((c) => c.split(";")[0])
    .join("; ");

async function setupPage(cookie: string) {
  const res = await app.request("/profile-setup", { headers: { Cookie: cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

function expectTyped(html: string) {
  expect(html).toMatch(
    /name="artistName"[^>]*value="Mira Sen Trio"|value="Mira Sen Trio"[^>]*name="artistName"/,
  );
  expect(html).toContain('value="Carnatic fusion"');
  expect(html).toContain('value="https://instagram.com/mirasen"');
  expect(html).toContain("Violin &amp; voice, &lt;late&gt; sets by the river.</textarea>");
}

describe("profile set-up keeps what was typed", () => {
  it("through 'sign in first' and a new tab, without JavaScript: the page is drawn with it", async () => {
    // Submitted while signed out: sent to sign in, the form kept in this browser.
    const refused = await post(TYPED);
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/auth?redirectTo=%2Fprofile-setup");
    const cookies = refused.headers.getSetCookie().filter((c) => c.startsWith("gl_profile_draft."));
    expect(cookies.length).toBeGreaterThan(0);
    for (const c of cookies) {
      expect(c).toContain("Path=/profile-setup");
      expect(c).toContain("HttpOnly");
    }
    const draft = draftCookie(refused);

    // The confirmation mail's tab: the same browser, now signed in.
    const user = await signedInUser(app, database.db, "Mira");
    expectTyped(await setupPage(`${user.cookie}; ${draft}`));

    // Created: the draft is forgotten.
    const created = await post(TYPED, `${user.cookie}; ${draft}`);
    expect(created.status).toBe(302);
    expect(created.headers.get("location")).toMatch(/^\/artist-dashboard\//);
    const cleared = created.headers.getSetCookie().filter((c) => c.startsWith("gl_profile_draft."));
    expect(cleared.length).toBeGreaterThan(0);
    for (const c of cleared) expect(c).toContain("Max-Age=0");
  });

  it("as it is typed (the page's script posts it to /profile-setup/draft), for a visitor not signed in yet", async () => {
    const kept = await post({ ...TYPED, bio: "Half a bio" }, "", "/profile-setup/draft");
    expect(kept.status).toBe(204);
    const html = await setupPage(draftCookie(kept));
    expect(html).toContain('value="Mira Sen Trio"');
    expect(html).toContain("Half a bio</textarea>");
    // A fresh browser has none.
    expect(await setupPage("")).not.toContain("Mira Sen Trio");
  });

  it("keeps a 2,000-character bio in any script, and ignores a cookie that does not read back", () => {
    const bio = "संगीत की शाम, राग और ताल। ".repeat(80).slice(0, 2000);
    const draft = ProfileDraftSchema.parse({ ...TYPED, bio });
    const cookie = profileDraftCookies(draft)
      .filter((c) => !c.includes("Max-Age=0"))
      .map((c) => c.split(";")[0])
      .join("; ");
    const request = (header: string) =>
      new Request("http://localhost/profile-setup", { headers: { Cookie: header } });
    expect(readProfileDraft(request(cookie))?.bio).toBe(bio);
    for (const broken of [
      "gl_profile_draft.0=not-deflate",
      "gl_profile_draft.0=%%%",
      `gl_profile_draft.0=${Buffer.from("x".repeat(10)).toString("base64url")}`,
    ])
      expect(readProfileDraft(request(broken))).toBeNull();
  });
});
