import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { canSeeDiagnostics } from "./diagnostics.policy";
import { type Diagnostics, deploymentStage, redactUrl } from "./diagnostics.server";

const healthy: Omit<Diagnostics, "stage" | "stageReason" | "checkedAt"> = {
  domain: {
    publicUrl: "https://gigs.example.com",
    hostname: "gigs.example.com",
    isPublic: true,
    https: true,
    resolves: true,
  },
  database: {
    driver: "postgres",
    location: "postgres://db",
    reachable: true,
    migrationsApplied: 4,
    migrationsAvailable: 4,
  },
  storage: { driver: "local", location: "DATA_DIR/files", writable: true },
  mail: { transport: "smtp", server: "smtp://mail" },
  auth: {
    basePath: "/api/auth",
    trustedOrigins: [],
    cookies: { secure: true, sameSite: "Lax", httpOnly: true },
  },
};

describe("deployment stage", () => {
  it("names the first step that is not done", () => {
    expect(deploymentStage(healthy).stage).toBe("live");
    expect(
      deploymentStage({ ...healthy, database: { ...healthy.database, migrationsApplied: 3 } })
        .stage,
    ).toBe("deployment");
    expect(deploymentStage({ ...healthy, domain: { ...healthy.domain, https: false } }).stage).toBe(
      "ssl",
    );
    expect(
      deploymentStage({ ...healthy, domain: { ...healthy.domain, resolves: false } }).stage,
    ).toBe("dns");
    expect(
      deploymentStage({ ...healthy, storage: { ...healthy.storage, writable: false } }).stage,
    ).toBe("error");
    expect(
      deploymentStage({ ...healthy, database: { ...healthy.database, reachable: false } }).stage,
    ).toBe("error");
  });

  it("never shows credentials of a connection URL", () => {
    expect(
      redactUrl("postgres://admin:hunter2@db.example.com:5432/gig?sslmode=require&password=x"),
    ).toBe("postgres://db.example.com:5432/gig");
    expect(redactUrl("smtps://user:pw@mail.example.com:465")).toBe("smtps://mail.example.com:465");
    expect(redactUrl(undefined)).toBeNull();
  });

  it("is open to everyone locally, to admins only when public", () => {
    const as = (role: "artist" | "admin") => ({ id: "u", roles: [role], artistProfileId: null });
    expect(canSeeDiagnostics(null, { isPublic: false })).toBe(true);
    expect(canSeeDiagnostics(null, { isPublic: true })).toBe(false);
    expect(canSeeDiagnostics(as("artist"), { isPublic: true })).toBe(false);
    expect(canSeeDiagnostics(as("admin"), { isPublic: true })).toBe(true);
  });
});

describe("diagnostic pages", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("answer everyone on a local app, with the checks and no secrets", async () => {
    const app = await startTestApp(database);
    try {
      for (const path of ["/diagnostic", "/domain-diagnostic"]) {
        const res = await app.request(path);
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).toContain("Deployment stage");
        expect(html).not.toContain("test-secret-");
      }
      const html = await (await app.request("/diagnostic")).text();
      expect(html).toMatch(/(\d+) of \1 applied/);
      expect(html).toContain("writable");
    } finally {
      await app.close();
    }
  });

  it("are 404 on a public app except for admins, and hide the database password", async () => {
    const app = await startTestApp(database, {
      APP_URL: "http://127.0.0.2:3000",
      MAIL_TRANSPORT: "log",
      DATABASE_URL: "postgres://gig:hunter2-secret@db.internal:5432/gigledger",
    });
    try {
      expect((await app.request("/diagnostic")).status).toBe(404);
      const member = await signedInUser(app, database.db, "Member");
      const admin = await signedInUser(app, database.db, "Admin");
      // ADMIN_EMAILS is read at start-up; the parsed list is what the request context sees.
      app.env.adminEmails.push(admin.email);
      expect(
        (await app.request("/domain-diagnostic", { headers: { Cookie: member.cookie } })).status,
      ).toBe(404);
      const res = await app.request("/diagnostic", { headers: { Cookie: admin.cookie } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain("postgres://db.internal:5432/gigledger");
      expect(html).not.toContain("hunter2");
      expect(html).toContain("Not Secure");
    } finally {
      await app.close();
    }
  });
});
