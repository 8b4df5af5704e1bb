import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { getCurrentUser, signOut, updateProfileSettings } from "./accounts.server";

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

/** Counts better-auth's session look-ups while `run` runs. */
async function countSessionLookUps(run: () => Promise<void>) {
  const original = app.auth.api.getSession;
  let calls = 0;
  app.auth.api.getSession = ((...args: Parameters<typeof original>) => {
    calls++;
    return original(...args);
  }) as typeof original;
  try {
    await run();
  } finally {
    app.auth.api.getSession = original;
  }
  return calls;
}

/** A request context like the server builds for one request. */
const requestContext = () => ({
  db: database.db,
  auth: app.auth,
  env: app.env,
  clientIp: "192.0.2.1",
  logger: pino({ level: "silent" }),
});

describe("the current user", () => {
  it("is looked up once per signed-in page load (root loader and route loader share it)", async () => {
    const user = await signedInUser(app, database.db, "Once");
    const page = await countSessionLookUps(async () => {
      const res = await app.request("/settings", { headers: { Cookie: user.cookie } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Profile Information");
    });
    expect(page).toBe(1);
    // A client-side navigation asks for the same loaders' data in one request: once there too.
    const navigation = await countSessionLookUps(async () => {
      const res = await app.request("/settings.data", { headers: { Cookie: user.cookie } });
      expect(res.status).toBe(200);
    });
    expect(navigation).toBe(1);
  });

  it("is not remembered past a sign-out in the same request", async () => {
    const user = await signedInUser(app, database.db, "Leaving");
    const ctx = requestContext();
    const request = new Request(new URL("/auth/sign-out", app.env.appUrl), {
      method: "POST",
      headers: { Cookie: user.cookie },
    });
    expect((await getCurrentUser(request, ctx))?.id).toBe(user.id);
    await signOut(ctx, request);
    expect(await getCurrentUser(request, ctx)).toBeNull();
  });

  it("shows a new name in the same request that saved it", async () => {
    const user = await signedInUser(app, database.db, "Before");
    const ctx = requestContext();
    const request = new Request(new URL("/settings", app.env.appUrl), {
      headers: { Cookie: user.cookie },
    });
    const actor = await getCurrentUser(request, ctx);
    expect(actor?.name).toBe("Before User");
    await updateProfileSettings(
      ctx,
      actor!,
      { firstName: "After", lastName: "User", email: user.email },
      request,
    );
    expect((await getCurrentUser(request, ctx))?.firstName).toBe("After");

    // The same over HTTP: the page the save answers has the new name in its header.
    const res = await postForm(
      app,
      "/settings",
      { intent: "profile", firstName: "Renamed", lastName: "User", email: user.email },
      user.cookie,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/Account menu for <\/span><span[^>]*>Renamed User</);
  });
});
