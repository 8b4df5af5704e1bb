import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { eq } from "drizzle-orm";
import type { Database } from "~db/client";
import {
  authAccounts,
  authSessions,
  authVerifications,
  profiles,
  rateLimits,
  users,
} from "~db/schema";
import type { Env } from "./env.server";
import type { Logger } from "./logger.server";
import type { Mail, Mailer } from "./mail.server";

export const AUTH_BASE_PATH = "/api/auth";
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

/** Origins whose browsers may send us state-changing requests. */
export function trustedOrigins(env: Env): string[] {
  const origins = new Set([env.appUrl.origin]);
  if (!env.isPublic) {
    // A local app answers on localhost and 127.0.0.1 alike.
    const port = env.appUrl.port ? `:${env.appUrl.port}` : "";
    for (const host of ["localhost", "127.0.0.1", "[::1]"])
      origins.add(`${env.appUrl.protocol}//${host}${port}`);
  }
  return [...origins];
}

/**
 * The mails better-auth sends on its own (confirmation, reset): the accounts feature writes them
 * and the composition root (server/composition.ts) hands them in, so this module knows no feature.
 */
export type AuthMails = {
  confirmSignUp(to: string, name: string, url: string): Mail;
  confirmNewEmail(to: string, name: string, url: string): Mail;
  resetPassword(to: string, name: string, url: string): Mail;
  existingAccountSignUp(to: string, name: string, signInUrl: string): Mail;
};

/**
 * better-auth on our own tables: e-mail and password (scrypt), confirmation before sign-in,
 * single-use reset links valid 30 minutes, sessions in the database.
 */
export function createAuth({
  db,
  env,
  mailer,
  mails,
  logger,
}: {
  db: Database;
  env: Env;
  mailer: Mailer;
  mails: AuthMails;
  logger: Logger;
}) {
  return betterAuth({
    appName: "GigLedger",
    baseURL: env.appUrl.origin,
    basePath: AUTH_BASE_PATH,
    secret: env.authSecret,
    trustedOrigins: trustedOrigins(env),
    telemetry: { enabled: false },
    logger: {
      log: (level, message, ...args) => logger[level]({ args }, `auth: ${message}`),
    },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
        rateLimit: rateLimits,
      },
    }),
    advanced: {
      database: { generateId: "uuid" },
      cookiePrefix: "gigledger",
      useSecureCookies: env.isHttps,
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: env.isHttps },
    },
    // Our actions call the API directly and apply their own limits (per address, per e-mail and,
    // for sign-in, per account-and-address; see app/features/accounts/accounts.server.ts); only
    // the link endpoints are served over HTTP.
    rateLimit: { enabled: false },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      resetPasswordTokenExpiresIn: 30 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        await mailer.send(mails.resetPassword(user.email, user.name, url));
      },
      onExistingUserSignUp: async ({ user }) => {
        await mailer.send(
          mails.existingAccountSignUp(user.email, user.name, new URL("/auth", env.appUrl).href),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url }) => {
        // A verified user receiving a verification mail is confirming a new address.
        const mail = user.emailVerified
          ? mails.confirmNewEmail(user.email, user.name, url)
          : mails.confirmSignUp(user.email, user.name, url);
        await mailer.send(mail);
      },
    },
    user: {
      changeEmail: { enabled: true },
      deleteUser: { enabled: true },
    },
    databaseHooks: {
      user: {
        update: {
          after: async (user) => {
            // profiles.email mirrors the account e-mail once a change is confirmed.
            await db
              .update(profiles)
              .set({ email: user.email, updatedAt: new Date() })
              .where(eq(profiles.id, user.id));
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
