import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "~db/schema";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

/**
 * An address the account forms take is one the account service (better-auth) takes too: each of
 * these once passed our form's check, was refused by the service, and answered 500.
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

const ODD_ADDRESSES = ["josé@example.com", "a@b.c/", 'a"b@c.de', "x@localhost"];

describe("addresses the account service would refuse", () => {
  it("are refused beside the field in Settings, and the address stays", async () => {
    const user = await signedInUser(app, database.db, "Kiran");
    for (const odd of ODD_ADDRESSES) {
      const res = await postForm(
        app,
        "/settings",
        { intent: "profile", firstName: "Kiran", lastName: "Das", email: odd },
        user.cookie,
      );
      expect(res.status, odd).toBe(400);
      expect(await res.text(), odd).toContain("Please enter a valid email address");
    }
    const [row] = await database.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row?.email).toBe(user.email);
  });

  it("are refused by 'Forgot password?' with a 400, not a 500", async () => {
    for (const odd of ODD_ADDRESSES) {
      const res = await postForm(app, "/auth", { intent: "forgot", email: odd });
      expect(res.status, odd).toBe(400);
      expect(await res.text(), odd).toContain("Please enter a valid email address");
    }
  });

  it("a plain address still passes", async () => {
    const res = await postForm(app, "/auth", { intent: "forgot", email: "someone@example.com" });
    expect(res.status).toBe(200);
  });
});
