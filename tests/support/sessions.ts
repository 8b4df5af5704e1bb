import { randomUUID } from "node:crypto";
import type { Database } from "~db/client";
import { authAccounts } from "~db/schema";
import { createUser } from "~seed/factories";
import type { startTestApp } from "./app-harness";

type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/**
 * A confirmed account (made by `createUser`, with a password as a sign-up leaves it) signed in
 * through the real sign-in form; returns its id, e-mail and session cookie.
 */
export async function signedInUser(app: TestApp, db: Database, firstName = "Test") {
  const email = `${firstName.toLowerCase()}-${randomUUID()}@example.com`;
  const password = "secret-123";
  const user = await createUser(db, { firstName, email });
  const auth = await app.auth.$context;
  await db.insert(authAccounts).values({
    userId: user.id,
    accountId: user.id,
    providerId: "credential",
    password: await auth.password.hash(password),
  });
  const res = await app.request("/auth", {
    method: "POST",
    body: new URLSearchParams({ intent: "signin", email, password }),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: app.env.appUrl.origin,
      "X-Test-User": email,
    },
    redirect: "manual",
  });
  if (res.status !== 302) throw new Error(`sign-in failed: ${res.status}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c?.startsWith("gigledger.session_token="))
    .join("; ");
  return { id: user.id, email, cookie };
}

/**
 * A form POST from this site's origin, as a browser would send it. A key posted more than once (a
 * group of checkboxes) goes as pairs.
 */
export function postForm(
  app: TestApp,
  path: string,
  fields: Record<string, string> | [string, string][],
  cookie?: string,
) {
  return app.request(path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: app.env.appUrl.origin,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    redirect: "manual",
  });
}
