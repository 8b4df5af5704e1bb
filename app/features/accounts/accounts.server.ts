import { and, eq, gt } from "drizzle-orm";
import { redirect } from "react-router";
import type { Role, SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { Problem, type ProblemCode, refuse } from "~/lib/problem";
import {
  clearRateLimit,
  hitRateLimit,
  hitRateLimits,
  peekRateLimit,
  type RateLimitRule,
} from "~/lib/rate-limit.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
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
  ChangePassword,
  DeleteAccount,
  NewPassword,
  ProfileSettings,
  SignIn,
  SignUp,
} from "./accounts.schema";
import { signInRefusal, signUpErrorMessage, TOO_MANY_ATTEMPTS } from "./auth-errors";

/*
 * Signatures. An account operation is performed by better-auth, which finds the session from the
 * request's cookie, so the operations go through the request as well as the usual arguments:
 * - signed in: `fn(ctx, actor, input, request)`; the actor says whose account it is;
 * - before sign-in there is no actor: sign-in, sign-up and the password reset are
 *   `fn(ctx, request, input)`, and the two mail requests (resend, forgot) are `fn(ctx, input)`.
 * Every refusal is a thrown Problem; better-auth failing (a 5xx) is a crash, not a refusal.
 */

type CurrentUser = {
  id: string;
  email: string;
  name: string;
  firstName: string;
  lastName: string;
  roles: Role[];
  artistProfileId: string | null;
};

type Ctx = Pick<AppContext, "db" | "auth" | "env" | "clientIp" | "logger">;

// ─── Limits ───────────────────────────────────────────────────────────────────────────────────

const SIGN_IN = {
  /** Every sign-in attempt from one address, whatever the account. */
  address: { max: 50, windowMs: 15 * 60_000 },
  /** Attempts on one account from one address (forgotten after a success): stops a guesser. */
  pair: { max: 8, windowMs: 15 * 60_000 },
  /** Wrong passwords for one account from every address: stops a guesser with many addresses. */
  account: { max: 24, windowMs: 60 * 60_000 },
} satisfies Record<string, RateLimitRule>;

const LIMITS = {
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

/**
 * Sign-in limits (docs/decisions/009-sign-in-limits.md). Attempts are counted per address and
 * per account-and-address pair before the password is checked; wrong passwords are also counted
 * per account. Once an account has had too many wrong passwords, only an address with no attempt
 * on it in the pair's window may still try, so a guesser cannot lock the owner out.
 */
async function signInAllowed(ctx: Ctx, email: string, now = Date.now()) {
  const [byAddress, byPair, failures] = await Promise.all([
    hitRateLimit(ctx.db, `signIn:ip:${ctx.clientIp}`, SIGN_IN.address, now),
    hitRateLimit(ctx.db, pairKey(ctx, email), SIGN_IN.pair, now),
    peekRateLimit(ctx.db, failuresKey(email), SIGN_IN.account, now),
  ]);
  const accountUnderAttack = failures >= SIGN_IN.account.max;
  return byAddress.allowed && byPair.allowed && (!accountUnderAttack || byPair.count === 1);
}

const pairKey = (ctx: Ctx, email: string) => `signIn:pair:${email}:${ctx.clientIp}`;
const failuresKey = (email: string) => `signIn:failures:${email}`;

// ─── better-auth answers ───────────────────────────────────────────────────────────────────────

type AuthFailure = { status: number; message: string | null; code: string | null };

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

/** better-auth's refusal as a Problem with our words; its own failures (5xx) are crashes. */
function authProblem(failure: AuthFailure, message: string, reason?: string): Problem {
  if (failure.status >= 500)
    throw new Error(`better-auth answered ${failure.status}: ${failure.message ?? "no message"}`);
  const code: ProblemCode =
    failure.status === 403 ? "forbidden" : failure.status === 429 ? "rate_limited" : "invalid";
  return new Problem(code, message, reason);
}

const isWrongPassword = (failure: AuthFailure) =>
  failure.code === "INVALID_PASSWORD" ||
  Boolean(failure.message?.toLowerCase().includes("invalid password"));

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

/** Signs in; answers the session cookies to send back. */
export async function signIn(ctx: Ctx, request: Request, input: SignIn): Promise<Headers> {
  if (!(await signInAllowed(ctx, input.email))) refuse("rate_limited", TOO_MANY_ATTEMPTS);
  const outcome = await authOutcome(
    await ctx.auth.api.signInEmail({
      body: { email: input.email, password: input.password, rememberMe: true },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (outcome.ok) {
    await clearRateLimit(ctx.db, pairKey(ctx, input.email));
    forgetCurrentUser(ctx);
    return outcome.headers;
  }
  // 401 is a wrong e-mail or password (403, unconfirmed, means the password was right).
  if (outcome.status === 401) await hitRateLimit(ctx.db, failuresKey(input.email), SIGN_IN.account);
  const { message, reason } = signInRefusal(outcome.message);
  throw authProblem(outcome, message, reason);
}

/**
 * Where the confirmation mail's link leads once it has signed the user in: a path on this site
 * (anything else is home).
 */
type AfterConfirmation = { continueTo?: string };

/**
 * Creates the account and sends the confirmation mail, whose link signs the user in and goes on
 * to `continueTo`. An address that already has an account gets the same answer (and a mail
 * telling its owner), so sign-up reveals no accounts.
 */
export async function signUp(
  ctx: Ctx,
  request: Request,
  input: SignUp & AfterConfirmation,
): Promise<void> {
  if (!(await withinLimits(ctx, "signUp", input.email))) refuse("rate_limited", TOO_MANY_ATTEMPTS);
  const response = await ctx.auth.api.signUpEmail({
    body: {
      name: `${input.firstName} ${input.lastName}`,
      email: input.email,
      password: input.password,
      callbackURL: safeRedirectPath(input.continueTo),
    },
    headers: request.headers,
    asResponse: true,
  });
  const outcome = await authOutcome(response.clone());
  if (!outcome.ok) throw authProblem(outcome, signUpErrorMessage(outcome.message));
  const body = (await response.json()) as { user?: { id?: string } };
  const userId = body.user?.id;
  if (!userId) return;
  // Only a user row that really has this e-mail gets a profile (not the decoy of a duplicate).
  const [created] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.email, input.email)));
  if (!created) return;
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

export async function resendConfirmation(
  ctx: Ctx,
  input: { email: string } & AfterConfirmation,
): Promise<void> {
  if (!(await withinLimits(ctx, "mail", input.email))) refuse("rate_limited", TOO_MANY_ATTEMPTS);
  const [user] = await ctx.db
    .select({ verified: users.emailVerified })
    .from(users)
    .where(eq(users.email, input.email));
  // Answer the same whether or not the address has an unconfirmed account.
  if (user && !user.verified) {
    await ctx.auth.api
      .sendVerificationEmail({
        body: { email: input.email, callbackURL: safeRedirectPath(input.continueTo) },
      })
      .catch((error: unknown) => {
        ctx.logger.error({ err: error }, "could not resend the confirmation mail");
      });
  }
}

/** Signs out the request's session; answers the cookies that clear it. */
export async function signOut(ctx: Ctx, request: Request): Promise<Headers> {
  const outcome = await authOutcome(
    await ctx.auth.api.signOut({ headers: request.headers, asResponse: true }),
  );
  forgetCurrentUser(ctx);
  return outcome.headers;
}

// ─── Password reset ────────────────────────────────────────────────────────────────────────────

export async function requestPasswordReset(ctx: Ctx, input: { email: string }): Promise<void> {
  if (!(await withinLimits(ctx, "mail", input.email))) refuse("rate_limited", TOO_MANY_ATTEMPTS);
  // better-auth answers the same for unknown addresses (and does the same work).
  await ctx.auth.api.requestPasswordReset({
    body: { email: input.email, redirectTo: "/auth?type=recovery" },
  });
}

/** Reset tokens are short printable text; anything else (a NUL byte, say) is no token. */
const PLAUSIBLE_TOKEN = /^[\x21-\x7e]{1,500}$/;

/** The user a still-valid reset token belongs to, or null. */
export async function getResetTokenUser(ctx: Pick<AppContext, "db">, token: string) {
  if (!PLAUSIBLE_TOKEN.test(token)) return null;
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

/**
 * Sets the new password (signing out every session of the user), then signs in here; answers
 * the new session's cookies.
 */
export async function resetPassword(
  ctx: Ctx,
  request: Request,
  input: Pick<NewPassword, "token" | "password">,
): Promise<Headers> {
  const user = await getResetTokenUser(ctx, input.token);
  if (!user) refuse("invalid", "This reset link is invalid or has expired.");
  const reset = await authOutcome(
    await ctx.auth.api.resetPassword({
      body: { token: input.token, newPassword: input.password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!reset.ok) throw authProblem(reset, reset.message ?? "Could not update the password.");
  const signedIn = await authOutcome(
    await ctx.auth.api.signInEmail({
      body: { email: user.email, password: input.password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  forgetCurrentUser(ctx);
  return signedIn.headers;
}

// ─── Settings ──────────────────────────────────────────────────────────────────────────────────

/** Saves the name; a new e-mail address is used once confirmed from the mail sent to it. */
export async function updateProfileSettings(
  ctx: Ctx,
  actor: CurrentUser,
  input: ProfileSettings,
  request: Request,
): Promise<{ emailChangeStarted: boolean }> {
  await ctx.db.transaction(async (tx) => {
    await tx
      .insert(profiles)
      .values({
        id: actor.id,
        firstName: input.firstName,
        lastName: input.lastName,
        email: actor.email,
      })
      .onConflictDoUpdate({
        target: profiles.id,
        set: { firstName: input.firstName, lastName: input.lastName, updatedAt: new Date() },
      });
    await tx
      .update(users)
      .set({ name: `${input.firstName} ${input.lastName}`, updatedAt: new Date() })
      .where(eq(users.id, actor.id));
  });
  // The header shows the name: the loaders after this action must see the new one.
  forgetCurrentUser(ctx);
  if (input.email === actor.email.toLowerCase()) return { emailChangeStarted: false };
  await ctx.auth.api.changeEmail({
    body: { newEmail: input.email, callbackURL: "/settings?email=confirmed" },
    headers: request.headers,
  });
  return { emailChangeStarted: true };
}

/** Changes the password and signs out the other sessions; answers this session's new cookies. */
export async function changePassword(
  ctx: Ctx,
  actor: SignedInActor,
  input: ChangePassword,
  request: Request,
): Promise<Headers> {
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
  if (!outcome.ok)
    throw authProblem(
      outcome,
      isWrongPassword(outcome)
        ? "Your current password is not correct."
        : (outcome.message ?? "Failed to update settings. Please try again."),
    );
  ctx.logger.info({ userId: actor.id }, "password changed");
  return outcome.headers;
}

export async function revokeOtherSessions(ctx: Ctx, actor: SignedInActor, request: Request) {
  await ctx.auth.api.revokeOtherSessions({ headers: request.headers });
  ctx.logger.info({ userId: actor.id }, "other sessions signed out");
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
 * Deletes the account after checking the password; answers the cookies that end the session.
 * The database cascades remove the profile, sessions, media rows, portfolio and messages; the
 * files in storage are removed here.
 */
export async function deleteAccount(
  ctx: Ctx & Pick<AppContext, "storage">,
  actor: SignedInActor,
  input: DeleteAccount,
  request: Request,
): Promise<Headers> {
  const files = await filesOfUser(ctx, actor.id);
  const outcome = await authOutcome(
    await ctx.auth.api.deleteUser({
      body: { password: input.password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!outcome.ok)
    throw authProblem(
      outcome,
      isWrongPassword(outcome)
        ? "That password is not correct."
        : (outcome.message ?? "Failed to update settings. Please try again."),
    );
  forgetCurrentUser(ctx);
  const failed = (await Promise.allSettled(files.map((key) => ctx.storage.delete(key)))).filter(
    (r) => r.status === "rejected",
  );
  if (failed.length > 0)
    ctx.logger.error(
      { count: failed.length },
      "some files of a deleted account could not be removed",
    );
  return outcome.headers;
}
