import { Music2 } from "lucide-react";
import { data, Link, redirect } from "react-router";
import {
  EmailOnlySchema,
  fieldErrors,
  NewPasswordSchema,
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
import { safeRedirectPath } from "~/features/accounts/auth-errors";
import {
  type AuthFormState,
  CheckEmail,
  ForgotPasswordForm,
  InvalidResetLink,
  NewPasswordForm,
  PasswordUpdated,
  SignInForm,
  SignUpForm,
} from "~/features/accounts/auth-forms";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/auth";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Sign in", description: "Sign in to GigLedger or create your account." });

type View = "signin" | "signup" | "forgot" | "recovery";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("type") !== "recovery" && (await getCurrentUser(request, context))) {
    throw redirect("/");
  }
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  if (url.searchParams.get("type") === "recovery") {
    const token = url.searchParams.get("token") ?? "";
    const valid = token !== "" && (await getResetTokenUser(context, token)) !== null;
    return { view: "recovery" as View, token: valid ? token : null, redirectTo, reason: null };
  }
  const tab = url.searchParams.get("tab");
  const view: View = tab === "signup" || tab === "forgot" ? tab : "signin";
  // Sent here by 'Book Performance': say why (product-spec 8.3, 'Authentication Required').
  const reason =
    url.searchParams.get("reason") === "book" ? "Please sign in to book an artist." : null;
  return { view, token: null, redirectTo, reason };
}

type ActionData = AuthFormState & {
  intent: string;
  signedUp?: boolean;
  email?: string;
  sent?: boolean;
  passwordUpdated?: boolean;
};

function failure(intent: string, status: number, state: AuthFormState, headers?: Headers) {
  return data<ActionData>({ intent, ...state }, { status, headers });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const raw = Object.fromEntries(form) as Record<string, string>;
  const keep = (...keys: string[]) =>
    Object.fromEntries(keys.map((k) => [k, String(raw[k] ?? "")]));

  switch (intent) {
    case "signin": {
      const parsed = SignInSchema.safeParse(raw);
      if (!parsed.success)
        return failure(intent, 400, {
          fieldErrors: fieldErrors(parsed.error),
          values: keep("email"),
        });
      const result = await signIn(request, context, parsed.data);
      if (!result.ok)
        return failure(intent, result.status, {
          formError: result.formError,
          values: keep("email"),
        });
      return redirectWithToast(
        safeRedirectPath(form.get("redirectTo")),
        { title: "Welcome back!", description: "You have signed in successfully." },
        { headers: result.headers },
      );
    }
    case "signup": {
      const parsed = SignUpSchema.safeParse(raw);
      const values = keep("firstName", "lastName", "email");
      if (!parsed.success)
        return failure(intent, 400, { fieldErrors: fieldErrors(parsed.error), values });
      const result = await signUp(request, context, parsed.data);
      if (!result.ok)
        return failure(intent, result.status, { formError: result.formError, values });
      return data<ActionData>({ intent, signedUp: true, email: parsed.data.email, values });
    }
    case "resend": {
      const parsed = EmailOnlySchema.safeParse(raw);
      if (!parsed.success) return failure(intent, 400, { fieldErrors: fieldErrors(parsed.error) });
      const result = await resendConfirmation(context, parsed.data.email);
      if (!result.ok) return failure(intent, 429, { formError: result.formError });
      return data<ActionData>({ intent, signedUp: true, sent: true, email: parsed.data.email });
    }
    case "forgot": {
      const parsed = EmailOnlySchema.safeParse(raw);
      if (!parsed.success)
        return failure(intent, 400, {
          fieldErrors: fieldErrors(parsed.error),
          values: keep("email"),
        });
      const result = await requestPasswordReset(context, parsed.data.email);
      if (!result.ok)
        return failure(intent, 429, { formError: result.formError, values: keep("email") });
      return data<ActionData>({ intent, sent: true });
    }
    case "reset": {
      const parsed = NewPasswordSchema.safeParse(raw);
      if (!parsed.success) return failure(intent, 400, { fieldErrors: fieldErrors(parsed.error) });
      const result = await resetPassword(request, context, parsed.data.token, parsed.data.password);
      if (!result.ok) return failure(intent, result.status, { formError: result.formError });
      return data<ActionData>({ intent, passwordUpdated: true }, { headers: result.headers });
    }
    default:
      return failure(intent, 400, { formError: "Unknown request." });
  }
}

const TABS = [
  { view: "signin", label: "Sign In", to: "/auth" },
  { view: "signup", label: "Sign Up", to: "/auth?tab=signup" },
] as const;

function toastFor(result: ActionData | undefined) {
  if (!result) return null;
  if (result.formError) {
    const title =
      result.intent === "signin"
        ? "Sign In Failed"
        : result.intent === "signup"
          ? "Sign Up Failed"
          : "Error";
    return { title, description: result.formError, variant: "destructive" as const };
  }
  if (result.intent === "signup" && result.signedUp) {
    return {
      title: "Account Created!",
      description: "Please check your email to confirm your account.",
    };
  }
  if (result.intent === "resend" && result.sent)
    return { title: "Confirmation email sent", description: `Check ${result.email}.` };
  if (result.intent === "forgot" && result.sent)
    return { title: "Reset email sent", description: "Check your inbox for the reset link." };
  if (result.intent === "reset" && result.passwordUpdated) return { title: "Password updated" };
  return null;
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionData | undefined;
  useToastOn(result, toastFor(result));
  const state = result as AuthFormState | undefined;
  const { view, token, redirectTo } = loaderData;
  const stateFor = (intent: string) => (result?.intent === intent ? state : undefined);

  let body: React.ReactNode;
  if (view === "recovery") {
    if (result?.passwordUpdated) body = <PasswordUpdated />;
    else
      body = token ? (
        <NewPasswordForm token={token} state={stateFor("reset")} />
      ) : (
        <InvalidResetLink />
      );
  } else if (result?.signedUp && result.email) {
    body = <CheckEmail email={result.email} />;
  } else if (view === "forgot") {
    body = (
      <ForgotPasswordForm
        state={stateFor("forgot")}
        sent={Boolean(result?.intent === "forgot" && result.sent)}
      />
    );
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
          <SignUpForm state={stateFor("signup")} />
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
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">{body}</div>
      </div>
    </main>
  );
}
