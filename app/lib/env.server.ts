import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { generateSecretKeyMultibase, seedOfSecretKey } from "./ed25519-key.server";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * The crash tests' fault points (design money-and-terms §8.5): where a local app started with
 * GIGLEDGER_FAULTS kills itself (SIGKILL) between the provider's success and our write.
 */
export const FAULT_POINTS = [
  "webhook.after-inbox-insert",
  "events.before-commit",
  "commands.after-provider-call",
  "release.after-provider-call",
] as const;

export type FaultPointName = (typeof FAULT_POINTS)[number];

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: optionalText,
  APP_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).optional(),
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
      .optional(),
  ),
  SMTP_FROM: z.string().trim().min(3).default("GigLedger <no-reply@gigledger.local>"),
  MAIL_TRANSPORT: z.enum(["smtp", "log"]).optional(),
  STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().trim().default("us-east-1"),
  S3_ENDPOINT: optionalText.pipe(z.url().optional()),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  MEDIA_MAX_IMAGE_MB: z.coerce.number().positive().default(20),
  MEDIA_MAX_AUDIO_MB: z.coerce.number().positive().default(100),
  MEDIA_MAX_VIDEO_MB: z.coerce.number().positive().default(500),
  APP_TIME_ZONE: z
    .string()
    .trim()
    .default("Asia/Kolkata")
    .refine(isValidTimeZone, "must be an IANA time zone such as Asia/Kolkata"),
  ADMIN_EMAILS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email("must be a comma-separated list of e-mail addresses"))),
  BETTER_AUTH_SECRET: optionalText.pipe(
    z.string().min(32, "must be at least 32 characters long").optional(),
  ),
  CREDENTIAL_SIGNING_KEY: optionalText.pipe(
    z
      .string()
      .refine(
        (v) => seedOfSecretKey(v) !== null,
        'must be an Ed25519 secret key multibase ("z…"); generate one with "npm run credential-key"',
      )
      .optional(),
  ),
  TRUST_PROXY: z
    .enum(["true", "false"])
    .default("false")
    .transform((v) => v === "true"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SEED_DEMO_DATA: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  PAYMENTS: z.enum(["off", "local", "razorpay"]).optional(),
  RAZORPAY_KEY_ID: optionalText,
  RAZORPAY_KEY_SECRET: optionalText,
  RAZORPAY_WEBHOOK_SECRET: optionalText,
  RAZORPAY_WEBHOOK_SECRET_PREVIOUS: optionalText,
  RAZORPAY_API_BASE: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  PLATFORM_COMMISSION_BPS: z.coerce.number().int().min(0).max(5000).default(1000),
  PLATFORM_GSTIN: optionalText,
  INVOICE_PREFIX: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{1,8}$/, "must be 1–8 capital letters or digits")
    .default("GL"),
  GIGLEDGER_FAULTS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(FAULT_POINTS, {
          error: `must be a comma-separated list of fault points: ${FAULT_POINTS.join(", ")}`,
        }),
      ),
    ),
});

/**
 * How money moves (docs/decisions/055): "off" (between the parties, as before), "local" (the
 * embedded Razorpay-compatible provider at /dev/psp; never when public) or "razorpay".
 */
export type PaymentsConfig =
  | { mode: "off" }
  | {
      mode: "local" | "razorpay";
      /** Where the Razorpay API is: the embedded provider's address when local. */
      apiBase: string;
      keyId: string;
      keySecret: string;
      webhookSecret: string;
      /** The secret before the last rotation, still accepted while it is set. */
      previousWebhookSecret: string | undefined;
    };

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  appUrl: URL;
  isPublic: boolean;
  isHttps: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections to PostgreSQL; unset: `defaultPoolSize()` (decision 072). */
  databasePoolSize: number | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  mailTransport: "smtp" | "log" | "outbox";
  storage:
    | { driver: "local"; root: string }
    | {
        driver: "s3";
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
      };
  mediaLimitsMb: { image: number; audio: number; video: number };
  timeZone: string;
  adminEmails: string[];
  authSecret: string;
  /** The Ed25519 secret key (multibase) that signs credentials (docs/decisions/018). */
  credentialSigningKey: string;
  logLevel: string;
  seedDemoData: boolean;
  /** Take the client address from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean;
  payments: PaymentsConfig;
  /** The platform's commission on what an artist keeps, in basis points (1000 = 10 %). */
  commissionBps: number;
  platformGstin: string | undefined;
  invoicePrefix: string;
  /** Fault points armed for a crash test (never when public): see FAULT_POINTS. */
  faults: FaultPointName[];
};

/** A bad environment stops the start with this message (see `isEnvError`). */
class EnvError extends Error {
  override readonly name = "EnvError";
}

/** Did the start stop on a bad environment variable (rather than a crash)? */
export const isEnvError = (error: unknown): error is Error => error instanceof EnvError;

function isValidTimeZone(tz: string) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function isLocalUrl(url: URL) {
  return LOCAL_HOSTS.has(url.hostname);
}

/**
 * Parses the environment once at start-up. A bad value stops the start with a message naming the
 * variable. A local app needs no configuration: its auth secret is generated once in DATA_DIR.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const appUrl = new URL(e.APP_URL ?? `http://localhost:${e.PORT}`);
  const isPublic = !isLocalUrl(appUrl);
  const isHttps = appUrl.protocol === "https:";
  const dataDir = path.resolve(e.DATA_DIR);

  if (isPublic && !e.BETTER_AUTH_SECRET) {
    throw new EnvError(
      `Invalid environment configuration:\n  BETTER_AUTH_SECRET: required when APP_URL (${appUrl.origin}) is public; generate one with "openssl rand -base64 48"`,
    );
  }
  if (isPublic && !e.CREDENTIAL_SIGNING_KEY) {
    throw new EnvError(
      `Invalid environment configuration:\n  CREDENTIAL_SIGNING_KEY: required when APP_URL (${appUrl.origin}) is public; generate one with "npm run credential-key"`,
    );
  }
  if (isPublic && e.GIGLEDGER_FAULTS.length > 0) {
    throw new EnvError(
      `Invalid environment configuration:\n  GIGLEDGER_FAULTS: the crash tests' fault points are refused when APP_URL (${appUrl.origin}) is public; remove the variable`,
    );
  }
  let mailTransport: Env["mailTransport"];
  if (e.SMTP_URL && e.MAIL_TRANSPORT !== "log") mailTransport = "smtp";
  else if (e.MAIL_TRANSPORT === "log") mailTransport = "log";
  else if (e.MAIL_TRANSPORT === "smtp") {
    throw new EnvError(
      "Invalid environment configuration:\n  SMTP_URL: required when MAIL_TRANSPORT=smtp",
    );
  } else if (isPublic) {
    throw new EnvError(
      "Invalid environment configuration:\n  SMTP_URL: required when APP_URL is public (or set MAIL_TRANSPORT=log to only log mails)",
    );
  } else mailTransport = "outbox";

  let storage: Env["storage"];
  if (e.STORAGE_DRIVER === "s3") {
    if (!e.S3_BUCKET) {
      throw new EnvError(
        "Invalid environment configuration:\n  S3_BUCKET: required when STORAGE_DRIVER=s3",
      );
    }
    storage = {
      driver: "s3",
      bucket: e.S3_BUCKET,
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    };
  } else {
    storage = { driver: "local", root: path.join(dataDir, "files") };
  }

  const payments = paymentsConfig(e, appUrl, isPublic);

  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST ?? (isPublic ? "0.0.0.0" : "127.0.0.1"),
    appUrl,
    isPublic,
    isHttps,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    mailTransport,
    storage,
    mediaLimitsMb: {
      image: e.MEDIA_MAX_IMAGE_MB,
      audio: e.MEDIA_MAX_AUDIO_MB,
      video: e.MEDIA_MAX_VIDEO_MB,
    },
    timeZone: e.APP_TIME_ZONE,
    adminEmails: e.ADMIN_EMAILS,
    authSecret: e.BETTER_AUTH_SECRET ?? localAuthSecret(dataDir),
    credentialSigningKey: e.CREDENTIAL_SIGNING_KEY ?? localSigningKey(dataDir),
    logLevel: e.LOG_LEVEL,
    seedDemoData: e.SEED_DEMO_DATA,
    trustProxy: e.TRUST_PROXY,
    payments,
    commissionBps: e.PLATFORM_COMMISSION_BPS,
    platformGstin: e.PLATFORM_GSTIN,
    invoicePrefix: e.INVOICE_PREFIX,
    faults: e.GIGLEDGER_FAULTS,
  };
}

/** The embedded provider's fixed local keys (server/dev-psp): it never runs when public. */
export const LOCAL_PSP_KEYS = {
  keyId: "rzp_test_DevPspLocal01",
  keySecret: "dev-psp-local-key-secret",
  webhookSecret: "dev-psp-local-webhook-secret",
} as const;

function paymentsConfig(
  e: z.infer<typeof EnvSchema>,
  appUrl: URL,
  isPublic: boolean,
): PaymentsConfig {
  const mode = e.PAYMENTS ?? (isPublic ? "off" : "local");
  if (mode === "off") return { mode };
  if (mode === "local") {
    if (isPublic)
      throw new EnvError(
        `Invalid environment configuration:\n  PAYMENTS: "local" (the embedded test provider) is refused when APP_URL (${appUrl.origin}) is public; use PAYMENTS=razorpay with its keys, or PAYMENTS=off`,
      );
    return {
      mode,
      apiBase: new URL("/dev/psp", appUrl).toString(),
      ...LOCAL_PSP_KEYS,
      previousWebhookSecret: undefined,
    };
  }
  const missing = (
    ["RAZORPAY_KEY_ID", "RAZORPAY_KEY_SECRET", "RAZORPAY_WEBHOOK_SECRET"] as const
  ).filter((name) => !e[name]);
  if (missing.length > 0)
    throw new EnvError(
      `Invalid environment configuration:\n${missing.map((n) => `  ${n}: required when PAYMENTS=razorpay`).join("\n")}`,
    );
  return {
    mode,
    apiBase: e.RAZORPAY_API_BASE ?? "https://api.razorpay.com",
    keyId: e.RAZORPAY_KEY_ID as string,
    keySecret: e.RAZORPAY_KEY_SECRET as string,
    webhookSecret: e.RAZORPAY_WEBHOOK_SECRET as string,
    previousWebhookSecret: e.RAZORPAY_WEBHOOK_SECRET_PREVIOUS,
  };
}

/** A local app keeps one generated secret in DATA_DIR so sign-ins survive a restart. */
function localAuthSecret(dataDir: string) {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** A local app signs credentials with one key generated into DATA_DIR on first start. */
function localSigningKey(dataDir: string) {
  const file = path.join(dataDir, "credential-signing-key");
  if (existsSync(file)) {
    const key = readFileSync(file, "utf8").trim();
    if (seedOfSecretKey(key)) return key;
    throw new EnvError(
      `Invalid credential signing key in ${file}: delete the file to make a new one`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const key = generateSecretKeyMultibase();
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}
