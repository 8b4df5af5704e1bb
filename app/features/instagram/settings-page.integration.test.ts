import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~db/schema";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

// /settings/instagram: musicians and clients see 'Coming Soon', what it will do, the privacy notes
// and the limitations; the operators' setup guide and URLs are for admins, and for everyone while
// the app is local (see docs/product.md, Instagram).

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let publicApp: Awaited<ReturnType<typeof startTestApp>>;
let localApp: Awaited<ReturnType<typeof startTestApp>>;

const OPERATOR_PARTS = [
  "For the site&#x27;s operators",
  "Setup guide",
  "Required URLs",
  "OAuth Redirect URI",
  "/functions/instagram-oauth?action=callback",
  "Troubleshooting",
];
const EVERYONE_PARTS = ["Coming Soon", "Collaboration discovery", "Privacy", "Limitations:"];

beforeAll(async () => {
  database = await createTestDatabase();
  publicApp = await startTestApp(database, {
    APP_URL: "http://gigledger.example",
    BETTER_AUTH_SECRET: "p".repeat(40),
    MAIL_TRANSPORT: "log",
    ADMIN_EMAILS: "operator@gigledger.example",
  });
  localApp = await startTestApp(database);
});
afterAll(async () => {
  await publicApp?.close();
  await localApp?.close();
  await database?.dispose();
});

async function pageFor(app: typeof publicApp, firstName: string, email?: string) {
  const user = await signedInUser(app, database.db, firstName);
  // An address listed in ADMIN_EMAILS makes its account an admin, checked on every request.
  if (email) await database.db.update(users).set({ email }).where(eq(users.id, user.id));
  return (await app.request("/settings/instagram", { headers: { Cookie: user.cookie } })).text();
}

describe("the Instagram page of a public site", () => {
  it("shows a musician or client what is coming, without the operators' guide", async () => {
    const html = await pageFor(publicApp, "Musician");
    for (const part of EVERYONE_PARTS) expect(html).toContain(part);
    for (const part of OPERATOR_PARTS) expect(html).not.toContain(part);
  });

  it("shows an admin the setup guide, its URLs and troubleshooting too", async () => {
    const html = await pageFor(publicApp, "Operator", "operator@gigledger.example");
    for (const part of [...EVERYONE_PARTS, ...OPERATOR_PARTS]) expect(html).toContain(part);
    expect(html).toContain("http://gigledger.example/functions/instagram-oauth?action=callback");
  });
});

describe("the Instagram page of a local app", () => {
  it("shows everyone the whole page", async () => {
    const html = await pageFor(localApp, "Tinkerer");
    for (const part of [...EVERYONE_PARTS, ...OPERATOR_PARTS]) expect(html).toContain(part);
  });
});

describe("where the Instagram page is reached", () => {
  it("is no main navigation item (the feature does not exist yet), and Settings leads to it", async () => {
    const user = await signedInUser(localApp, database.db, "Navigator");
    const get = async (path: string) =>
      (await localApp.request(path, { headers: { Cookie: user.cookie } })).text();
    const discovery = await get("/artist-discovery");
    const navs = discovery.match(/<nav[\s\S]*?<\/nav>/g) ?? [];
    expect(navs.length).toBeGreaterThan(0);
    for (const nav of navs) {
      expect(nav).not.toContain('href="/settings/instagram"');
      expect(nav).not.toMatch(/>Instagram</);
    }
    const settings = await get("/settings");
    expect(settings).toContain("Instagram (coming soon)");
    expect(settings).toContain("Connecting Instagram is not available yet.");
    expect(settings).toMatch(
      /href="\/settings\/instagram"[^>]*>What it will do, and what it will read</,
    );
  });
});
