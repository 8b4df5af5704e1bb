import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { databaseOptionsFor, defaultPoolSize } from "~db/client";
import { generateSecretKeyMultibase } from "./ed25519-key.server";
import { isEnvError, loadEnv } from "./env.server";

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "gl-env-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SECRET = "x".repeat(40);

describe("loadEnv", () => {
  it("needs no configuration locally and keeps one generated auth secret in DATA_DIR", () => {
    const dir = tempDir();
    const env = loadEnv({ DATA_DIR: dir });
    expect(env.port).toBe(3000);
    expect(env.appUrl.href).toBe("http://localhost:3000/");
    expect(env.isPublic).toBe(false);
    expect(env.host).toBe("127.0.0.1");
    expect(env.mailTransport).toBe("outbox");
    expect(env.storage).toEqual({ driver: "local", root: path.join(dir, "files") });
    expect(env.timeZone).toBe("Asia/Kolkata");
    expect(env.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "auth-secret"), "utf8")).toBe(env.authSecret);
    expect(loadEnv({ DATA_DIR: dir }).authSecret).toBe(env.authSecret);
  });

  it("refuses a public APP_URL without an auth secret, naming the variable", () => {
    const dir = tempDir();
    expect(() =>
      loadEnv({ DATA_DIR: dir, APP_URL: "https://gigledger.example", SMTP_URL: "smtp://mail:25" }),
    ).toThrow(/BETTER_AUTH_SECRET: required when APP_URL/);
    expect(existsSync(path.join(dir, "auth-secret"))).toBe(false);
  });

  it("refuses a public APP_URL without a credential signing key; a local app makes one", () => {
    const dir = tempDir();
    const base = {
      DATA_DIR: dir,
      APP_URL: "https://gigledger.example",
      BETTER_AUTH_SECRET: SECRET,
      MAIL_TRANSPORT: "log",
    };
    expect(() => loadEnv(base)).toThrow(/CREDENTIAL_SIGNING_KEY: required when APP_URL/);
    expect(() => loadEnv({ ...base, CREDENTIAL_SIGNING_KEY: "z6Mk-not-a-key" })).toThrow(
      /CREDENTIAL_SIGNING_KEY: must be an Ed25519 secret key/,
    );
    expect(existsSync(path.join(dir, "credential-signing-key"))).toBe(false);
    const key = generateSecretKeyMultibase();
    expect(loadEnv({ ...base, CREDENTIAL_SIGNING_KEY: key }).credentialSigningKey).toBe(key);
    const local = loadEnv({ DATA_DIR: dir });
    expect(readFileSync(path.join(dir, "credential-signing-key"), "utf8")).toBe(
      local.credentialSigningKey,
    );
    expect(loadEnv({ DATA_DIR: dir }).credentialSigningKey).toBe(local.credentialSigningKey);
  });

  it("refuses a public APP_URL without SMTP unless mail is set to log only", () => {
    const base = {
      DATA_DIR: tempDir(),
      APP_URL: "https://gigledger.example",
      BETTER_AUTH_SECRET: SECRET,
      CREDENTIAL_SIGNING_KEY: generateSecretKeyMultibase(),
    };
    expect(() => loadEnv(base)).toThrow(/SMTP_URL: required when APP_URL is public/);
    expect(loadEnv({ ...base, MAIL_TRANSPORT: "log" }).mailTransport).toBe("log");
    const env = loadEnv({ ...base, SMTP_URL: "smtps://user:pass@mail.example:465" });
    expect(env.mailTransport).toBe("smtp");
    expect(env.isPublic).toBe(true);
    expect(env.isHttps).toBe(true);
    expect(env.host).toBe("0.0.0.0");
  });

  it("opens DATABASE_POOL_SIZE connections, else twice the cores from 4 to 10", () => {
    const set = loadEnv({
      DATA_DIR: tempDir(),
      DATABASE_URL: "postgres://db/x",
      DATABASE_POOL_SIZE: "6",
    });
    expect(databaseOptionsFor(set)).toEqual({
      driver: "postgres",
      url: "postgres://db/x",
      poolSize: 6,
    });
    const unset = loadEnv({ DATA_DIR: tempDir(), DATABASE_URL: "postgres://db/x" });
    expect(databaseOptionsFor(unset)).toEqual({
      driver: "postgres",
      url: "postgres://db/x",
      poolSize: undefined,
    });
    // Twice the cores, within 4 to 10: 4 on this two-core machine, 10 on five cores or more.
    expect(defaultPoolSize()).toBe(
      availableParallelism() <= 2
        ? 4
        : availableParallelism() >= 5
          ? 10
          : 2 * availableParallelism(),
    );
  });

  it.each([
    [{ PORT: "eighty" }, /PORT/],
    [{ PORT: "70000" }, /PORT/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL: must start with postgres/],
    [{ DATABASE_POOL_SIZE: "0" }, /DATABASE_POOL_SIZE/],
    [{ DATABASE_POOL_SIZE: "many" }, /DATABASE_POOL_SIZE/],
    [{ APP_TIME_ZONE: "Mars/Olympus" }, /APP_TIME_ZONE: must be an IANA time zone/],
    [{ ADMIN_EMAILS: "a@b.co, not-an-email" }, /ADMIN_EMAILS/],
    [{ APP_URL: "ftp://example.com" }, /APP_URL/],
    [{ STORAGE_DRIVER: "s3" }, /S3_BUCKET: required/],
    [{ BETTER_AUTH_SECRET: "short" }, /BETTER_AUTH_SECRET: must be at least 32/],
  ])("stops on a bad value %o", (vars, message) => {
    let thrown: unknown;
    try {
      loadEnv({ DATA_DIR: tempDir(), ...vars });
    } catch (error) {
      thrown = error;
    }
    expect(isEnvError(thrown)).toBe(true);
    expect(() => loadEnv({ DATA_DIR: tempDir(), ...vars })).toThrow(message);
  });

  it("parses lists and the S3 settings", () => {
    const env = loadEnv({
      DATA_DIR: tempDir(),
      ADMIN_EMAILS: " Boss@Example.com ,ops@example.com",
      STORAGE_DRIVER: "s3",
      S3_BUCKET: "media",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      DATABASE_URL: "postgres://u:p@127.0.0.1:5432/gigledger",
    });
    expect(env.adminEmails).toEqual(["boss@example.com", "ops@example.com"]);
    expect(env.storage).toMatchObject({ driver: "s3", bucket: "media", forcePathStyle: true });
    expect(env.databaseUrl).toBe("postgres://u:p@127.0.0.1:5432/gigledger");
  });
});
