import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~db/client";
import { profiles, users } from "~db/schema";
import type { startTestApp } from "./app-harness";

type TestApp = Awaited<ReturnType<typeof startTestApp>>;

/** A confirmed account signed in through the real sign-in form; returns its id and cookie. */
export async function signedInUser(app: TestApp, db: Database, firstName = "Test") {
  const email = `${firstName.toLowerCase()}-${randomUUID()}@example.com`;
  const password = "secret-123";
  await app.auth.api.signUpEmail({ body: { name: `${firstName} User`, email, password } });
  const [user] = await db
    .update(users)
    .set({ emailVerified: true })
    .where(eq(users.email, email))
    .returning({ id: users.id });
  await db.insert(profiles).values({ id: user!.id, firstName, lastName: "User", email });
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
  return { id: user!.id, email, cookie };
}

/** A form POST from this site's origin, as a browser would send it. */
export function postForm(
  app: TestApp,
  path: string,
  fields: Record<string, string>,
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
