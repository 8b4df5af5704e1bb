import Music2 from "lucide-react/icons/eighth-note";
import { data, Link, redirect } from "react-router";
import { Card } from "~/components/ui/card";
import {
  EmailOnlySchema,
  NewPasswordSchema,
  type Purpose,
  SignInSchema,
  SignUpSchema,
} from "~/features/accounts/accounts.schema";
import {
  getCurrentUser,
  getResetTokenUser,
  requestPasswordReset,
  resendConfirmation,
  resetPassword,
  signIn,
  signUp,
} from "~/features/accounts/accounts.server";
import { INVALID_CREDENTIALS } from "~/features/accounts/auth-errors";
import {
  CheckEmail,
  ForgotPasswordForm,
  InvalidResetLink,
  NewPasswordForm,
  PasswordUpdated,
  SignInForm,
  SignUpForm,
} from "~/features/accounts/auth-forms";
import { attempt, parseForm, readForm, replyError, replyOk } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/auth";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Sign in", description: "Sign in to GigLedger or create your account." });

type View = "signin" | "signup" | "forgot" | "recovery";
type Intent = "signin" | "signup" | "resend" | "forgot" | "reset";
/**
 * What a success answers: the form it came from and, when a mail went out, its address and where
 * its link leads.
 */
type Done = { intent: Intent; email?: string; continueTo?: string };

/**
 * Where a new account goes once confirmed: back to the action that asked for sign-in (Book
 * Performance, a share link, a booking mail), else where its purpose leads (see docs/product.md,
 * Accounts).
 */
const PURPOSE_PATH: Record<Purpose, string> = {
  book: "/artist-discovery",
  artist: "/profile-setup",
};
function continuePath(redirectTo: string, purpose: Purpose) {
  return redirectTo === "/" ? PURPOSE_PATH[purpose] : redirectTo;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  if (url.searchParams.get("type") !== "recovery" && (await getCurrentUser(request, context))) {
    // Back to what asked for sign-in; never to this page again (that would loop).
    throw redirect(new URL(redirectTo, url).pathname === "/auth" ? "/" : redirectTo);
  }
  if (url.searchParams.get("type") === "recovery") {
    const token = url.searchParams.get("token") ?? "";
    const valid = token !== "" && (await getResetTokenUser(context, token)) !== null;
    return {
      view: "recovery" as View,
      token: valid ? token : null,
      redirectTo,
      reason: null,
      purpose: null,
    };
  }
  const tab = url.searchParams.get("tab");
  const view: View = tab === "signup" || tab === "forgot" ? tab : "signin";
  // Sent here by 'Book Performance': say why (see docs/product.md, Accounts).
  const reason =
    url.searchParams.get("reason") === "book" ? "Please sign in to book an artist." : null;
  // 'Join as Artist' preselects the artist profile; otherwise booking is preselected.
  const purpose: Purpose = url.searchParams.get("purpose") === "artist" ? "artist" : "book";
  return { view, token: null, redirectTo, reason, purpose };
}

const ERROR = "Error";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");

  switch (intent) {
    case "signin": {
      const parsed = parseForm(SignInSchema, form);
      if (!parsed.ok) return parsed.reply;
      const result = await attempt(() => signIn(context, request, parsed.data), {
        values: parsed.values,
        toastTitle: "Sign In Failed",
      });
      if (!(result instanceof Headers)) {
        // A wrong e-mail or password is HTTP's 401 (not signed in), which no Problem code names.
        return result.data.reason === INVALID_CREDENTIALS
          ? data(result.data, { status: 401 })
          : result;
      }
      return redirectWithToast(
        safeRedirectPath(form.get("redirectTo")),
        { title: "Welcome back!", description: "You have signed in successfully." },
        { headers: result },
      );
    }
    case "signup": {
      const parsed = parseForm(SignUpSchema, form);
      if (!parsed.ok) return parsed.reply;
      const { email, purpose } = parsed.data;
      const continueTo = continuePath(safeRedirectPath(form.get("redirectTo")), purpose);
      return attempt(
        async () => {
          await signUp(context, request, { ...parsed.data, continueTo });
          return replyOk<Done>(
            { intent: "signup", email, continueTo },
            {
              toast: {
                title: "Account Created!",
                description: "Please check your email to confirm your account.",
              },
            },
          );
        },
        { values: parsed.values, toastTitle: "Sign Up Failed" },
      );
    }
    case "resend": {
      const parsed = parseForm(EmailOnlySchema, form);
      if (!parsed.ok) return parsed.reply;
      const { email } = parsed.data;
      // The resent link leads where the first one did (the form carries it).
      const continueTo = safeRedirectPath(form.get("redirectTo"));
      return attempt(
        async () => {
          await resendConfirmation(context, { email, continueTo });
          return replyOk<Done>(
            { intent: "resend", email, continueTo },
            { toast: { title: "Confirmation email sent", description: `Check ${email}.` } },
          );
        },
        { values: parsed.values, toastTitle: ERROR },
      );
    }
    case "forgot": {
      const parsed = parseForm(EmailOnlySchema, form);
      if (!parsed.ok) return parsed.reply;
      return attempt(
        async () => {
          await requestPasswordReset(context, parsed.data);
          return replyOk<Done>(
            { intent: "forgot" },
            {
              toast: {
                title: "Reset email sent",
                description: "Check your inbox for the reset link.",
              },
            },
          );
        },
        { values: parsed.values, toastTitle: ERROR },
      );
    }
    case "reset": {
      const parsed = parseForm(NewPasswordSchema, form);
      if (!parsed.ok) return parsed.reply;
      return attempt(
        async () => {
          const headers = await resetPassword(context, request, parsed.data);
          return replyOk<Done>(
            { intent: "reset" },
            { toast: { title: "Password updated" }, headers },
          );
        },
        { values: parsed.values, toastTitle: ERROR },
      );
    }
    default:
      return replyError(400, "Unknown request.", {
        title: ERROR,
        description: "Unknown request.",
        variant: "destructive",
      });
  }
}

const TABS = [
  { view: "signin", label: "Sign In", to: "/auth" },
  { view: "signup", label: "Sign Up", to: "/auth?tab=signup" },
] as const;

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  useToastOn(actionData, actionData?.toast);
  const { view, token, redirectTo, purpose } = loaderData;
  const done = actionData?.ok ? actionData.value : undefined;
  // A refused form is the one whose fields came back (its intent is among them).
  const stateFor = (intent: Intent) =>
    actionData && !actionData.ok && actionData.values?.intent === intent ? actionData : undefined;

  let body: React.ReactNode;
  if (view === "recovery") {
    if (done?.intent === "reset") body = <PasswordUpdated />;
    else
      body = token ? (
        <NewPasswordForm token={token} state={stateFor("reset")} />
      ) : (
        <InvalidResetLink />
      );
  } else if ((done?.intent === "signup" || done?.intent === "resend") && done.email) {
    body = <CheckEmail email={done.email} continueTo={done.continueTo ?? redirectTo} />;
  } else if (view === "forgot") {
    body = <ForgotPasswordForm state={stateFor("forgot")} sent={done?.intent === "forgot"} />;
  } else {
    body = (
      <>
        <nav aria-label="Account" className="mb-6 grid grid-cols-2 rounded-lg bg-slate-100 p-1">
          {TABS.map((tab) => (
            <Link
              key={tab.view}
              to={
                redirectTo === "/"
                  ? tab.to
                  : `${tab.to}${tab.to.includes("?") ? "&" : "?"}redirectTo=${encodeURIComponent(redirectTo)}`
              }
              aria-current={view === tab.view ? "page" : undefined}
              className={`rounded-md py-2 text-center text-sm font-medium ${
                view === tab.view
                  ? "bg-white text-slate-900 shadow-sm"
                  : "text-slate-600 hover:text-slate-900"
              }`}
            >
              {tab.label}
            </Link>
          ))}
        </nav>
        {view === "signup" ? (
          <SignUpForm
            state={stateFor("signup")}
            redirectTo={redirectTo}
            purpose={purpose ?? "book"}
          />
        ) : (
          <SignInForm state={stateFor("signin") ?? stateFor("resend")} redirectTo={redirectTo} />
        )}
      </>
    );
  }

  return (
    <main id="main" className="flex justify-center px-4 py-12 sm:py-20">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <Music2 aria-hidden className="mx-auto h-10 w-10 text-brand-600" />
          <h1 className="mt-3 text-2xl font-bold">
            {view === "signup"
              ? "Join GigLedger"
              : view === "signin"
                ? "Welcome to GigLedger"
                : "Your account"}
          </h1>
        </div>
        {loaderData.reason ? (
          <p
            role="status"
            className="mb-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          >
            <strong>Authentication Required.</strong> {loaderData.reason}
          </p>
        ) : null}
        <Card className="shadow-sm wrap-anywhere">{body}</Card>
      </div>
    </main>
  );
}
