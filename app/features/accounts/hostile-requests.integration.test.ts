import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~db/schema";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  // Behind a proxy, so each test can send from the addresses it needs.
  app = await startTestApp(database, { TRUST_PROXY: "true" });
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

type TestApp = Awaited<ReturnType<typeof startTestApp>>;
const PASSWORD = "secret-123";
const NUL = "abc\u0000def";
const NUL_MESSAGE = "This field contains a character we can";
const TOO_MANY = "Too many login attempts. Please wait a moment before trying again.";

let addresses = 0;
/** A network address no other test uses. */
const freshAddress = () => `198.51.100.${++addresses}`;

/** A confirmed account that has not signed in yet. */
async function confirmedAccount() {
  const email = `owner-${randomUUID()}@example.com`;
  await app.auth.api.signUpEmail({ body: { name: "Owner User", email, password: PASSWORD } });
  await database.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
  return email;
}

function post(
  path: string,
  fields: Record<string, string>,
  options: { from?: string; cookie?: string; target?: TestApp } = {},
) {
  const target = options.target ?? app;
  return target.request(path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: target.env.appUrl.origin,
      "X-Forwarded-For": options.from ?? freshAddress(),
      ...(options.cookie ? { Cookie: options.cookie } : {}),
    },
    redirect: "manual",
  });
}

const signIn = (email: string, password: string, from: string, target?: TestApp) =>
  post("/auth", { intent: "signin", email, password }, { from, target });

describe("after sign-in, the redirect", () => {
  it.each([
    "/.//evil.example",
    "/./\\evil.example",
    "/auth/../\\evil.example",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/..//evil.example",
    "/%2e/%2fevil.example",
    "/\t/evil.example",
    " //evil.example",
    "https://evil.example/",
    "http:evil.example",
    "javascript:alert(1)",
  ])("to %j stays on this site", async (redirectTo) => {
    const email = await confirmedAccount();
    const res = await post(
      "/auth",
      { intent: "signin", email, password: PASSWORD, redirectTo },
      { from: "203.0.113.10" },
    );
    expect(res.status).toBe(302);
    const location = res.headers.get("location") ?? "";
    // What a browser would do with the Location header: resolve it against the page's URL.
    expect(new URL(location, app.env.appUrl).origin).toBe(app.env.appUrl.origin);
    expect(location).toMatch(/^\/(?![/\\])/);
  });

  it("keeps a same-site path as it is", async () => {
    const email = await confirmedAccount();
    const res = await post(
      "/auth",
      { intent: "signin", email, password: PASSWORD, redirectTo: "/settings?tab=x#top" },
      { from: "203.0.113.11" },
    );
    expect(res.headers.get("location")).toBe("/settings?tab=x#top");
  });
});

describe("a NUL byte in a field", () => {
  const authForms: [string, Record<string, string>][] = [
    ["signin", { email: "someone@example.com", password: PASSWORD }],
    [
      "signup",
      { firstName: "Kiran", lastName: "Das", email: "someone@example.com", password: PASSWORD },
    ],
    ["forgot", { email: "someone@example.com" }],
    ["resend", { email: "someone@example.com" }],
    ["reset", { token: "abcdef", password: PASSWORD, confirmPassword: PASSWORD }],
  ];
  const cases = authForms.flatMap(([intent, fields]) =>
    Object.keys(fields).map((field) => [intent, field, fields] as const),
  );

  it.each(cases)(
    "of the %s form (%s) is refused beside the field",
    async (intent, field, fields) => {
      const res = await post("/auth", { intent, ...fields, [field]: NUL });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(NUL_MESSAGE);
    },
  );

  it("of a settings form is refused beside the field", async () => {
    const user = await signedInUser(app, database.db, "Nul");
    const settingsForms: [string, Record<string, string>][] = [
      ["profile", { firstName: "Nul", lastName: "User", email: user.email }],
      [
        "password",
        { currentPassword: PASSWORD, newPassword: "secret-456", confirmPassword: "secret-456" },
      ],
      ["delete", { password: PASSWORD }],
    ];
    for (const [intent, fields] of settingsForms) {
      for (const field of Object.keys(fields)) {
        const res = await post(
          "/settings",
          { intent, ...fields, [field]: NUL },
          { cookie: user.cookie },
        );
        expect(res.status, `${intent} ${field}`).toBe(400);
        expect(await res.text(), `${intent} ${field}`).toContain(NUL_MESSAGE);
      }
    }
    // Nothing was changed or deleted.
    expect((await app.request("/settings", { headers: { Cookie: user.cookie } })).status).toBe(200);
  });

  it.each([
    "/auth?type=recovery&token=%00",
    "/auth?type=recovery&token=abc%00def",
    "/auth?redirectTo=%00",
    "/auth?tab=abc%00def",
  ])("in %s is not a server error", async (path) => {
    const res = await app.request(path);
    expect(res.status).toBeLessThan(500);
    if (path.includes("recovery")) expect(await res.text()).toContain("Invalid Reset Link");
  });
});

describe("a body that is not a form", () => {
  const bodies: [string, string, string, number][] = [
    ["JSON", "application/json", JSON.stringify({ intent: "signin" }), 415],
    ["plain text", "text/plain", "intent=signin", 415],
    ["multipart without a boundary", "multipart/form-data", "--x\r\n\r\n", 400],
    [
      "truncated multipart",
      "multipart/form-data; boundary=XYZ",
      '--XYZ\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsignin\r\n--XYZ\r\nContent-Disposition: form-data; name="email"\r\n\r\nabc',
      400,
    ],
  ];
  let cookie = "";
  beforeAll(async () => {
    cookie = (await signedInUser(app, database.db, "Body")).cookie;
  });

  it.each(
    bodies.flatMap(([name, type, body, status]) =>
      ["/auth", "/settings"].map((path) => [name, path, type, body, status] as const),
    ),
  )("(%s) sent to %s is answered as a client error", async (_name, path, type, body, status) => {
    const res = await app.request(path, {
      method: "POST",
      body,
      headers: { "Content-Type": type, Origin: app.env.appUrl.origin, Cookie: cookie },
      redirect: "manual",
    });
    expect(res.status).toBe(status);
  });
});

describe("sign-in limits", () => {
  it("stop a guesser at one address without locking the owner out", async () => {
    const email = await confirmedAccount();
    const attacker = freshAddress();
    for (let i = 0; i < 8; i++)
      expect((await signIn(email, `wrong-${i}`, attacker)).status).toBe(401);
    const blocked = await signIn(email, "wrong-again", attacker);
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toContain(TOO_MANY);
    // Even the right password gets nowhere from the guesser's address...
    expect((await signIn(email, PASSWORD, attacker)).status).toBe(429);
    // ...while the owner, from their own address, signs in.
    const owner = await signIn(email, PASSWORD, freshAddress());
    expect(owner.status).toBe(302);
    expect(owner.headers.getSetCookie().join()).toContain("gigledger.session_token=");
    // The guesser stays blocked, also after a restart (the counters are in the database).
    expect((await signIn(email, "wrong-later", attacker)).status).toBe(429);
    const restarted = await startTestApp(database, { TRUST_PROXY: "true" });
    try {
      expect((await signIn(email, "wrong-after-restart", attacker, restarted)).status).toBe(429);
    } finally {
      await restarted.close();
    }
  });

  it("slow a guesser with many addresses per account; an address with no attempts still gets in", async () => {
    const email = await confirmedAccount();
    const guessers = [freshAddress(), freshAddress(), freshAddress()];
    // 24 wrong passwords in the hour: the account is now under attack.
    for (const from of guessers)
      for (let i = 0; i < 8; i++)
        expect((await signIn(email, `wrong-${i}`, from)).status).toBe(401);
    // A new address gets one try, not eight.
    const newcomer = freshAddress();
    expect((await signIn(email, "wrong-a", newcomer)).status).toBe(401);
    expect((await signIn(email, "wrong-b", newcomer)).status).toBe(429);
    expect((await signIn(email, PASSWORD, newcomer)).status).toBe(429);
    // The owner, from an address that has not tried, signs in; and again (a success starts afresh).
    const home = freshAddress();
    expect((await signIn(email, PASSWORD, home)).status).toBe(302);
    expect((await signIn(email, PASSWORD, home)).status).toBe(302);
    // Other accounts are not affected.
    const other = await confirmedAccount();
    const neighbour = freshAddress();
    expect((await signIn(other, "wrong", neighbour)).status).toBe(401);
    expect((await signIn(other, PASSWORD, neighbour)).status).toBe(302);
  });
});
