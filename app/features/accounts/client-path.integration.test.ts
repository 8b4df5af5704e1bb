import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artistProfiles, userRoles } from "~db/schema";
import { addArtistProfile, createArtist, createSession } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { startSmtpSink } from "../../../tests/support/smtp-sink";
import { createTestDatabase } from "../../../tests/support/test-database";
import { createSharingLink } from "../sharing/sharing.server";

// The client's path (see docs/product.md, Accounts and Other pages): sign-up asks what the person
// came for and continues there; a sign-up or sign-in started from an action comes back to it
// through the confirmation mail; nobody who came to book is sent to create an artist profile.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpSink();
  app = await startTestApp(database, { SMTP_URL: smtp.url });
});
afterAll(async () => {
  await app?.close();
  await smtp?.close();
  await database?.dispose();
});

let n = 0;
const email = (p: string) => `${p}.${Date.now()}.${++n}@example.com`;

const signUp = (address: string, fields: Record<string, string> = {}) =>
  postForm(app, "/auth", {
    intent: "signup",
    firstName: "Nila",
    lastName: "Menon",
    email: address,
    password: "secret-123",
    ...fields,
  });

/** Follows the newest confirmation mail's link; answers where it leads and the session cookie. */
async function confirm(address: string, subject = /Confirm your GigLedger account/) {
  const mail = await smtp.waitForMail(address, subject);
  const link = new URL(/https?:\/\/\S+verify-email\S+/.exec(mail.text)?.[0] as string);
  const res = await app.request(link.pathname + link.search, { redirect: "manual" });
  expect(res.status).toBe(302);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { location: res.headers.get("location"), cookie };
}

/** The purposes a sign-up form has checked. */
const checkedPurposes = (html: string) =>
  [...html.matchAll(/<input[^>]*name="purpose"[^>]*>/g)]
    .filter((m) => m[0].includes('checked=""'))
    .map((m) => /value="(\w+)"/.exec(m[0])?.[1]);

const page = async (path: string, cookie?: string) =>
  (await app.request(path, cookie ? { headers: { Cookie: cookie } } : {})).text();

describe("sign-up", () => {
  it("asks what the person came for; 'Join as Artist' preselects the artist profile", async () => {
    const html = await page("/auth?tab=signup");
    expect(html).toContain("What brings you to GigLedger?");
    expect(checkedPurposes(html)).toEqual(["book"]);
    expect(html).toContain("Create an artist profile");
    expect(checkedPurposes(await page("/auth?tab=signup&purpose=artist"))).toEqual(["artist"]);
  });

  it.each([
    ["book", "/artist-discovery"],
    ["artist", "/profile-setup"],
  ])("for %s, continues to %s once the mail's link confirms the address", async (purpose, path) => {
    const address = email(purpose);
    expect((await signUp(address, { purpose })).status).toBe(200);
    const { location, cookie } = await confirm(address);
    expect(location).toBe(path);
    expect(await page(path, cookie)).toContain("Account menu for");
  });

  it("started from an action, asks nothing and comes back to the action after confirming", async () => {
    const action = "/bookings?artist=9b2f3c1e-0000-4000-8000-000000000001";
    const form = await page(`/auth?tab=signup&redirectTo=${encodeURIComponent(action)}`);
    expect(form).not.toContain("What brings you to GigLedger?");
    expect(form).toContain(`name="redirectTo" value="${action.replace("&", "&amp;")}"`);
    const address = email("action");
    expect((await signUp(address, { redirectTo: action, purpose: "artist" })).status).toBe(200);
    expect((await confirm(address)).location).toBe(action);
  });

  it("never leads off the site: a foreign return address falls back to the purpose", async () => {
    const address = email("evil");
    await signUp(address, { redirectTo: "//evil.example/steal", purpose: "book" });
    expect((await confirm(address)).location).toBe("/artist-discovery");
  });

  it("a resent confirmation mail leads back to the action too", async () => {
    const address = email("resend");
    const action = "/join-session/some-token";
    await signUp(address, { redirectTo: action });
    await smtp.waitForMail(address, /Confirm your GigLedger account/);
    // Signing in before confirming offers to resend; the resend form carries the return address.
    const refused = await postForm(app, `/auth?redirectTo=${encodeURIComponent(action)}`, {
      intent: "signin",
      email: address,
      password: "secret-123",
      redirectTo: action,
    });
    expect(await refused.text()).toMatch(/name="redirectTo" value="\/join-session\/some-token"/);
    const resent = await postForm(app, "/auth", {
      intent: "resend",
      email: address,
      redirectTo: action,
    });
    expect(resent.status).toBe(200);
    const mails = async () =>
      (await smtp.waitForMail(address, /Confirm your GigLedger account/)).text;
    // The newest mail is the resent one; both lead back to the action.
    expect(await mails()).toContain(encodeURIComponent(action));
    expect((await confirm(address)).location).toBe(action);
  });
});

describe("a signed-in visitor of /auth", () => {
  it("goes to the page that asked for sign-in", async () => {
    const user = await signedInUser(app, database.db, "Back");
    const res = await app.request("/auth?redirectTo=%2Fclient-bookings", {
      headers: { Cookie: user.cookie },
      redirect: "manual",
    });
    expect(res.headers.get("location")).toBe("/client-bookings");
    const loop = await app.request("/auth?redirectTo=%2Fauth%3Ftab%3Dsignup", {
      headers: { Cookie: user.cookie },
      redirect: "manual",
    });
    expect(loop.headers.get("location")).toBe("/");
  });
});

describe("someone without an artist profile", () => {
  it("finds My Bookings behind Dashboard, and 'Create artist profile' in the account menu", async () => {
    const user = await signedInUser(app, database.db, "Client");
    const html = await page("/artist-discovery", user.cookie);
    const main = /<nav aria-label="Main"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
    expect(main).toMatch(/href="\/client-bookings"[^>]*>Dashboard</);
    expect(html).not.toMatch(/href="\/profile-setup"[^>]*>Dashboard</);
    const menu = /<div id="user-menu"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
    expect(menu).toMatch(/href="\/profile-setup"[^>]*>Create artist profile</);
    expect(menu).toMatch(/href="\/client-bookings"[^>]*>My Bookings</);
  });

  it("is never sent to profile setup by /dashboard", async () => {
    const user = await signedInUser(app, database.db, "Visitor");
    const go = async () =>
      (
        await app.request("/dashboard", { headers: { Cookie: user.cookie }, redirect: "manual" })
      ).headers.get("location");
    expect(await go()).toBe("/artist-discovery");
    await database.db.insert(userRoles).values({ userId: user.id, role: "client" });
    expect(await go()).toBe("/client-bookings");
  });

  it("with a profile, Dashboard is the artist dashboard again", async () => {
    const user = await signedInUser(app, database.db, "Artist");
    await addArtistProfile({ db: database.db }, user.id);
    const html = await page("/artist-discovery", user.cookie);
    const main = /<nav aria-label="Main"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? "";
    expect(main).toMatch(/href="\/artist-dashboard"[^>]*>Dashboard</);
    expect(html).not.toContain("Create artist profile");
  });
});

describe("a session share link", () => {
  async function shareLink() {
    const owner = await createArtist(
      { db: database.db },
      { name: "Kavya Strings", timeZone: "America/Los_Angeles" },
    );
    const sessionId = await createSession(database.db, owner.artistId, {
      title: "Winter Jam at Blue Door",
      sessionType: "jam",
      // 8:00 PM on 15 January 2027 in Los Angeles.
      startTime: new Date("2027-01-16T04:00:00Z"),
      durationMinutes: 120,
    });
    const { url } = await createSharingLink(
      { db: database.db, env: app.env },
      { id: owner.user.id, roles: ["artist"], artistProfileId: owner.artistId },
      { sessionId, maxUses: null },
    );
    return new URL(url).pathname;
  }

  it("shows a signed-out visitor the session and who invites them, with sign-in and sign-up back to it", async () => {
    const path = await shareLink();
    const html = await page(path);
    expect(html).toContain("Kavya Strings invited you to join this session as a collaborator.");
    expect(html).toContain("Winter Jam at Blue Door");
    expect(html).toContain("January 15, 2027, 8:00 PM PST");
    expect(html).toContain("2 hours");
    const back = encodeURIComponent(path);
    expect(html).toContain(`href="/auth?redirectTo=${back}"`);
    expect(html).toContain(`href="/auth?tab=signup&amp;redirectTo=${back}"`);
  });

  it("sends someone without a profile to profile setup and back to the link afterwards", async () => {
    const path = await shareLink();
    const user = await signedInUser(app, database.db, "Joiner");
    const html = await page(path, user.cookie);
    const setup = `/profile-setup?redirectTo=${encodeURIComponent(path)}`;
    expect(html).toContain(`href="${setup.replaceAll("&", "&amp;")}"`);
    const res = await postForm(
      app,
      setup,
      {
        artistName: "Joiner Quartet",
        genre: "Jazz",
        bio: "Bio",
        location: "Mumbai",
        experience: "2 years",
        instruments: "Bass",
        hourlyRate: "",
        instagram: "",
        youtube: "",
        facebook: "",
        timeZone: "Asia/Kolkata",
      },
      user.cookie,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(path);
    const [profile] = await database.db
      .select({ id: artistProfiles.id })
      .from(artistProfiles)
      .where(eq(artistProfiles.userId, user.id));
    expect(profile).toBeDefined();
    expect(await page(path, user.cookie)).toContain("Join as Collaborator");
  });
});
