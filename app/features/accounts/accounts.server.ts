import { and, eq, gt } from "drizzle-orm";
import { redirect } from "react-router";
import type { Role } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { hitRateLimits, type RateLimitRule } from "~/lib/rate-limit.server";
import {
  artistProfiles,
  authVerifications,
  musicSessions,
  profiles,
  sessionMedia,
  userRoles,
  users,
} from "~db/schema";
import type {
  ChangePasswordSchema,
  DeleteAccountSchema,
  ProfileSettingsSchema,
  SignIn,
  SignUp,
} from "./accounts.schema";
import { signInErrorMessage, signUpErrorMessage, TOO_MANY_ATTEMPTS } from "./auth-errors";

export type CurrentUser = {
  id: string;
  email: string;
  name: string;
  firstName: string;
  lastName: string;
  roles: Role[];
  artistProfileId: string | null;
};

type Ctx = Pick<AppContext, "db" | "auth" | "env" | "clientIp" | "logger">;
type Infer<T extends { _zod: { output: unknown } }> = T["_zod"]["output"];

export type ActionResult =
  | { ok: true; headers: Headers }
  | { ok: false; status: number; formError: string; headers?: Headers };

const LIMITS = {
  signIn: { ip: { max: 50, windowMs: 15 * 60_000 }, email: { max: 8, windowMs: 15 * 60_000 } },
  signUp: { ip: { max: 20, windowMs: 60 * 60_000 }, email: { max: 5, windowMs: 60 * 60_000 } },
  mail: { ip: { max: 20, windowMs: 60 * 60_000 }, email: { max: 5, windowMs: 60 * 60_000 } },
} satisfies Record<string, { ip: RateLimitRule; email: RateLimitRule }>;

async function withinLimits(ctx: Ctx, action: keyof typeof LIMITS, email: string) {
  const limits = LIMITS[action];
  const [byIp, byEmail] = await Promise.all([
    hitRateLimits(ctx.db, [`${action}:ip:${ctx.clientIp}`], limits.ip),
    hitRateLimits(ctx.db, [`${action}:email:${email}`], limits.email),
  ]);
  return byIp.allowed && byEmail.allowed;
}

/** Reads a better-auth response: its cookies, and its error message when it failed. */
async function authOutcome(response: Response) {
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  if (response.ok) return { ok: true as const, headers };
  const body = (await response.json().catch(() => null)) as {
    message?: string;
    code?: string;
  } | null;
  return {
    ok: false as const,
    headers,
    status: response.status,
    message: body?.message ?? null,
    code: body?.code ?? null,
  };
}

// ─── Who is asking ─────────────────────────────────────────────────────────────────────────────

type UserCtx = Pick<AppContext, "db" | "auth" | "env">;

/**
 * The current user, looked up once per request: every loader of a page receives the same request
 * context, so the root loader and the route loader share one session look-up. Any action that
 * changes who is signed in, or what the header shows about them, calls `forgetCurrentUser` so the
 * loaders that run after it in the same request see the change.
 */
const currentUserMemo = new WeakMap<object, Promise<CurrentUser | null>>();

export function getCurrentUser(request: Request, ctx: UserCtx): Promise<CurrentUser | null> {
  let pending = currentUserMemo.get(ctx);
  if (!pending) {
    pending = lookUpCurrentUser(request, ctx);
    currentUserMemo.set(ctx, pending);
    pending.catch(() => currentUserMemo.delete(ctx));
  }
  return pending;
}

export function forgetCurrentUser(ctx: object) {
  currentUserMemo.delete(ctx);
}

async function lookUpCurrentUser(request: Request, ctx: UserCtx): Promise<CurrentUser | null> {
  const session = await ctx.auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const userId = session.user.id;
  const [[profile], roleRows, [artist]] = await Promise.all([
    ctx.db
      .select({ firstName: profiles.firstName, lastName: profiles.lastName })
      .from(profiles)
      .where(eq(profiles.id, userId)),
    ctx.db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)),
    ctx.db
      .select({ id: artistProfiles.id })
      .from(artistProfiles)
      .where(eq(artistProfiles.userId, userId)),
  ]);
  const roles = new Set<Role>(roleRows.map((r) => r.role));
  if (ctx.env.adminEmails.includes(session.user.email.toLowerCase())) roles.add("admin");
  const [first = "", ...rest] = session.user.name.split(" ");
  return {
    id: userId,
    email: session.user.email,
    name: session.user.name,
    firstName: profile?.firstName ?? first,
    lastName: profile?.lastName ?? rest.join(" "),
    roles: [...roles],
    artistProfileId: artist?.id ?? null,
  };
}

/** The signed-in user, or a redirect to /auth that comes back here after sign-in. */
export async function requireUser(request: Request, ctx: UserCtx): Promise<CurrentUser> {
  const user = await getCurrentUser(request, ctx);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/auth?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}

// ─── Sign in, sign up, sign out ────────────────────────────────────────────────────────────────

export async function signIn(request: Request, ctx: Ctx, input: SignIn): Promise<ActionResult> {
  if (!(await withinLimits(ctx, "signIn", input.email))) {
    return { ok: false, status: 429, formError: TOO_MANY_ATTEMPTS };
  }
  const outcome = await authOutcome(
    await ctx.auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (outcome.ok) return outcome;
  return { ok: false, status: outcome.status, formError: signInErrorMessage(outcome.message) };
}

/**
 * Creates the account and sends the confirmation mail. An address that already has an account
 * gets the same answer (and a mail telling its owner), so sign-up reveals no accounts.
 */
export async function signUp(request: Request, ctx: Ctx, input: SignUp): Promise<ActionResult> {
  if (!(await withinLimits(ctx, "signUp", input.email))) {
    return { ok: false, status: 429, formError: TOO_MANY_ATTEMPTS };
  }
  const response = await ctx.auth.api.signUpEmail({
    body: {
      name: `${input.firstName} ${input.lastName}`,
      email: input.email,
      password: input.password,
      callbackURL: "/",
    },
    headers: request.headers,
    asResponse: true,
  });
  const outcome = await authOutcome(response.clone());
  if (!outcome.ok)
    return { ok: false, status: outcome.status, formError: signUpErrorMessage(outcome.message) };
  const body = (await response.json()) as { user?: { id?: string } };
  const userId = body.user?.id;
  if (userId) {
    // Only a user row that really has this e-mail gets a profile (not the decoy of a duplicate).
    const [created] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.email, input.email)));
    if (created) {
      await ctx.db
        .insert(profiles)
        .values({
          id: created.id,
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
        })
        .onConflictDoNothing();
    }
  }
  return { ok: true, headers: new Headers() };
}

export async function resendConfirmation(ctx: Ctx, email: string) {
  if (!(await withinLimits(ctx, "mail", email)))
    return { ok: false as const, formError: TOO_MANY_ATTEMPTS };
  const [user] = await ctx.db
    .select({ verified: users.emailVerified })
    .from(users)
    .where(eq(users.email, email));
  // Answer the same whether or not the address has an unconfirmed account.
  if (user && !user.verified) {
    await ctx.auth.api
      .sendVerificationEmail({ body: { email, callbackURL: "/" } })
      .catch((error: unknown) => {
        ctx.logger.error({ err: error }, "could not resend the confirmation mail");
      });
  }
  return { ok: true as const };
}

export async function signOut(request: Request, ctx: Ctx) {
  const outcome = await authOutcome(
    await ctx.auth.api.signOut({ headers: request.headers, asResponse: true }),
  );
  return outcome.headers;
}

// ─── Password reset ────────────────────────────────────────────────────────────────────────────

export async function requestPasswordReset(ctx: Ctx, email: string) {
  if (!(await withinLimits(ctx, "mail", email)))
    return { ok: false as const, formError: TOO_MANY_ATTEMPTS };
  // better-auth answers the same for unknown addresses (and does the same work).
  await ctx.auth.api.requestPasswordReset({ body: { email, redirectTo: "/auth?type=recovery" } });
  return { ok: true as const };
}

/** The user a still-valid reset token belongs to, or null. */
export async function getResetTokenUser(ctx: Pick<AppContext, "db">, token: string) {
  const [row] = await ctx.db
    .select({ userId: authVerifications.value })
    .from(authVerifications)
    .where(
      and(
        eq(authVerifications.identifier, `reset-password:${token}`),
        gt(authVerifications.expiresAt, new Date()),
      ),
    );
  if (!row) return null;
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(eq(users.id, row.userId));
  return user ?? null;
}

/** Sets the new password (signing out every session of the user), then signs in here. */
export async function resetPassword(
  request: Request,
  ctx: Ctx,
  token: string,
  newPassword: string,
): Promise<ActionResult> {
  const user = await getResetTokenUser(ctx, token);
  if (!user)
    return { ok: false, status: 400, formError: "This reset link is invalid or has expired." };
  const reset = await authOutcome(
    await ctx.auth.api.resetPassword({
      body: { token, newPassword },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!reset.ok)
    return {
      ok: false,
      status: reset.status,
      formError: reset.message ?? "Could not update the password.",
    };
  const signedIn = await authOutcome(
    await ctx.auth.api.signInEmail({
      body: { email: user.email, password: newPassword },
      headers: request.headers,
      asResponse: true,
    }),
  );
  return { ok: true, headers: signedIn.headers };
}

// ─── Settings ──────────────────────────────────────────────────────────────────────────────────

export async function updateProfileSettings(
  request: Request,
  ctx: Ctx,
  user: CurrentUser,
  input: Infer<typeof ProfileSettingsSchema>,
): Promise<{ emailChangeStarted: boolean }> {
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(profiles)
      .values({
        id: user.id,
        firstName: input.firstName,
        lastName: input.lastName,
        email: user.email,
      })
      .onConflictDoUpdate({
        target: profiles.id,
        set: { firstName: input.firstName, lastName: input.lastName, updatedAt: new Date() },
      });
    await tx
      .update(users)
      .set({ name: `${input.firstName} ${input.lastName}`, updatedAt: new Date() })
      .where(eq(users.id, user.id));
  });
  if (input.email === user.email.toLowerCase()) return { emailChangeStarted: false };
  await ctx.auth.api.changeEmail({
    body: { newEmail: input.email, callbackURL: "/settings?email=confirmed" },
    headers: request.headers,
  });
  return { emailChangeStarted: true };
}

export async function changePassword(
  request: Request,
  ctx: Ctx,
  input: Infer<typeof ChangePasswordSchema>,
): Promise<ActionResult> {
  const outcome = await authOutcome(
    await ctx.auth.api.changePassword({
      body: {
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        revokeOtherSessions: true,
      },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (outcome.ok) return outcome;
  const wrong = outcome.message?.toLowerCase().includes("invalid password");
  return {
    ok: false,
    status: outcome.status,
    formError: wrong
      ? "Your current password is not correct."
      : (outcome.message ?? "Failed to update settings. Please try again."),
  };
}

export async function revokeOtherSessions(request: Request, ctx: Ctx) {
  await ctx.auth.api.revokeOtherSessions({ headers: request.headers });
}

/** Every stored file that belongs to the user: session media, their previews, the avatar. */
async function filesOfUser(ctx: Pick<AppContext, "db">, userId: string) {
  const media = await ctx.db
    .select({ file: sessionMedia.filePath, preview: sessionMedia.previewPath })
    .from(sessionMedia)
    .innerJoin(musicSessions, eq(musicSessions.id, sessionMedia.sessionId))
    .innerJoin(artistProfiles, eq(artistProfiles.id, musicSessions.artistProfileId))
    .where(eq(artistProfiles.userId, userId));
  const [artist] = await ctx.db
    .select({ avatar: artistProfiles.avatarPath })
    .from(artistProfiles)
    .where(eq(artistProfiles.userId, userId));
  return [...media.flatMap((m) => [m.file, m.preview]), artist?.avatar].filter((k): k is string =>
    Boolean(k),
  );
}

/**
 * Deletes the account after checking the password. The database cascades remove the profile,
 * sessions, media rows, portfolio and messages; the files in storage are removed here.
 */
export async function deleteAccount(
  request: Request,
  ctx: Ctx & Pick<AppContext, "storage">,
  user: CurrentUser,
  input: Infer<typeof DeleteAccountSchema>,
): Promise<ActionResult> {
  const files = await filesOfUser(ctx, user.id);
  const outcome = await authOutcome(
    await ctx.auth.api.deleteUser({
      body: { password: input.password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (outcome.ok) {
    const failed = (await Promise.allSettled(files.map((key) => ctx.storage.delete(key)))).filter(
      (r) => r.status === "rejected",
    );
    if (failed.length > 0)
      ctx.logger.error(
        { count: failed.length },
        "some files of a deleted account could not be removed",
      );
    return outcome;
  }
  const wrong = outcome.message?.toLowerCase().includes("invalid password");
  return {
    ok: false,
    status: outcome.status,
    formError: wrong
      ? "That password is not correct."
      : (outcome.message ?? "Failed to update settings. Please try again."),
  };
}
