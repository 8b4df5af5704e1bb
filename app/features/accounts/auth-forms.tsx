import CheckCircle2 from "lucide-react/icons/circle-check";
import XCircle from "lucide-react/icons/circle-x";
import MailCheck from "lucide-react/icons/mail-check";
import { useEffect } from "react";
import { Form, Link, useNavigate } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { Spinner } from "~/components/ui/spinner";
import type { FormReply } from "~/lib/form";
import { useHydrated } from "~/lib/use-hydrated";
import { usePending } from "~/lib/use-pending";
import type { Purpose } from "./accounts.schema";
import { EMAIL_NOT_CONFIRMED } from "./auth-errors";

/** What a form shows of its last reply: messages, what was typed, and why it was refused. */
type AuthFormState = Pick<FormReply<unknown>, "formError" | "fieldErrors" | "values" | "reason">;

function SubmitButton({
  intent,
  label,
  busyLabel,
}: {
  intent: string;
  label: string;
  busyLabel: string;
}) {
  const busy = usePending({ intent });
  return (
    <Button type="submit" name="intent" value={intent} className="w-full" disabled={busy}>
      {busy ? (
        <>
          <Spinner /> {busyLabel}
        </>
      ) : (
        label
      )}
    </Button>
  );
}

export function SignInForm({ state, redirectTo }: { state?: AuthFormState; redirectTo: string }) {
  const notConfirmed = state?.reason === EMAIL_NOT_CONFIRMED;
  return (
    <div className="space-y-4">
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormError>{state?.formError}</FormError>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state?.values?.email}
          error={state?.fieldErrors?.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={state?.fieldErrors?.password}
        />
        <SubmitButton intent="signin" label="Sign In" busyLabel="Signing in..." />
      </Form>
      {notConfirmed ? (
        <Form method="post">
          <input type="hidden" name="email" value={state?.values?.email ?? ""} />
          {/* The new link leads back to what asked for sign-in, like the first one. */}
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <Button type="submit" name="intent" value="resend" variant="outline" className="w-full">
            Resend confirmation email
          </Button>
        </Form>
      ) : null}
      <p className="text-center text-sm">
        <Link to="/auth?tab=forgot" className="text-brand-700 underline">
          Forgot your password?
        </Link>
      </p>
    </div>
  );
}

const PURPOSE_CHOICES: { value: Purpose; label: string; hint: string }[] = [
  { value: "book", label: "Book musicians", hint: "Find artists and book them for your event." },
  {
    value: "artist",
    label: "Create an artist profile",
    hint: "Get booked and build your verified history.",
  },
];

/**
 * Sign-up asks what the person came for and continues there after confirming; a sign-up that
 * started from an action (`redirectTo`) returns to it instead and asks nothing.
 */
export function SignUpForm({
  state,
  redirectTo,
  purpose,
}: {
  state?: AuthFormState;
  redirectTo: string;
  purpose: Purpose;
}) {
  const chosen = state?.values?.purpose ?? purpose;
  return (
    <Form method="post" className="space-y-4" noValidate>
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <FormError>{state?.formError}</FormError>
      {redirectTo === "/" ? (
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-800">
            What brings you to GigLedger?
          </legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {PURPOSE_CHOICES.map((choice) => (
              <label
                key={choice.value}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
              >
                <input
                  type="radio"
                  name="purpose"
                  value={choice.value}
                  defaultChecked={chosen === choice.value}
                  className="mt-1 accent-brand-600"
                />
                <span>
                  <span className="block text-sm font-medium">{choice.label}</span>
                  <span className="block text-xs text-slate-600">{choice.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="First Name"
          name="firstName"
          autoComplete="given-name"
          required
          defaultValue={state?.values?.firstName}
          error={state?.fieldErrors?.firstName}
        />
        <Field
          label="Last Name"
          name="lastName"
          autoComplete="family-name"
          required
          defaultValue={state?.values?.lastName}
          error={state?.fieldErrors?.lastName}
        />
      </div>
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={state?.values?.email}
        error={state?.fieldErrors?.email}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={6}
        hint="At least 6 characters."
        error={state?.fieldErrors?.password}
      />
      <SubmitButton intent="signup" label="Create Account" busyLabel="Creating account..." />
    </Form>
  );
}

export function CheckEmail({ email, continueTo }: { email: string; continueTo: string }) {
  return (
    <div className="space-y-4 text-center">
      <MailCheck aria-hidden className="mx-auto h-12 w-12 text-brand-600" />
      <h2 className="text-xl font-semibold">Check your email</h2>
      <p className="text-slate-600">
        We sent a confirmation link to <strong>{email}</strong>. Click it to confirm your address
        and sign in.
      </p>
      <Form method="post">
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="redirectTo" value={continueTo} />
        <Button type="submit" name="intent" value="resend" variant="outline" className="w-full">
          Resend confirmation email
        </Button>
      </Form>
      <Link to="/auth?tab=signup" className={buttonClasses("ghost", "md", "w-full")}>
        Back
      </Link>
    </div>
  );
}

export function ForgotPasswordForm({ state, sent }: { state?: AuthFormState; sent: boolean }) {
  return (
    <div className="space-y-4">
      <div>
        <h2 className="text-xl font-semibold">Reset your password</h2>
        <p className="mt-1 text-sm text-slate-600">
          Enter your account's e-mail address and we'll send you a reset link.
        </p>
      </div>
      {sent ? (
        <p
          role="status"
          className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-800"
        >
          If an account exists for that address, a reset link is on its way. It works once and
          expires in 30 minutes.
        </p>
      ) : null}
      <Form method="post" className="space-y-4" noValidate>
        <FormError>{state?.formError}</FormError>
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          defaultValue={state?.values?.email}
          error={state?.fieldErrors?.email}
        />
        <SubmitButton intent="forgot" label="Send Reset Link" busyLabel="Sending..." />
      </Form>
      <p className="text-center text-sm">
        <Link to="/auth" className="text-brand-700 underline">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}

export function NewPasswordForm({ token, state }: { token: string; state?: AuthFormState }) {
  return (
    <div className="space-y-4">
      <h2 className="text-xl font-semibold">Set a new password</h2>
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="token" value={token} />
        <FormError>{state?.formError}</FormError>
        <Field
          label="New Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={6}
          error={state?.fieldErrors?.password}
        />
        <Field
          label="Confirm Password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          error={state?.fieldErrors?.confirmPassword}
        />
        <SubmitButton intent="reset" label="Update Password" busyLabel="Updating..." />
      </Form>
    </div>
  );
}

export function InvalidResetLink() {
  return (
    <div className="space-y-4 text-center">
      <XCircle aria-hidden className="mx-auto h-12 w-12 text-red-500" />
      <h2 className="text-xl font-semibold">Invalid Reset Link</h2>
      <p className="text-slate-600">
        This password reset link is invalid, already used or has expired.
      </p>
      <Link to="/auth?tab=forgot" className={buttonClasses("primary", "md", "w-full")}>
        Request a new link
      </Link>
    </div>
  );
}

/** The dashboard that fits the account: an artist's own, else My Bookings or discovery. */
const AFTER_RESET = "/dashboard";

/** 'Password Updated', then on to the dashboard after 2 seconds (a meta refresh without JS). */
export function PasswordUpdated() {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  useEffect(() => {
    const timer = setTimeout(() => navigate(AFTER_RESET), 2000);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <div className="space-y-4 text-center" role="status">
      {hydrated ? null : <meta httpEquiv="refresh" content={`2;url=${AFTER_RESET}`} />}
      <CheckCircle2 aria-hidden className="mx-auto h-12 w-12 text-emerald-600" />
      <h2 className="text-xl font-semibold">Password Updated</h2>
      <p className="text-slate-600">
        Your password has been changed. Taking you to your dashboard…
      </p>
    </div>
  );
}
