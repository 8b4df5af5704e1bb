import ArrowLeft from "lucide-react/icons/arrow-left";
import CheckCircle2 from "lucide-react/icons/circle-check";
import { useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FormError } from "~/components/ui/field";
import { Spinner } from "~/components/ui/spinner";
import {
  ChangePasswordSchema,
  DeleteAccountSchema,
  ProfileSettingsSchema,
} from "~/features/accounts/accounts.schema";
import {
  changePassword,
  deleteAccount,
  requireUser,
  revokeOtherSessions,
  updateProfileSettings,
} from "~/features/accounts/accounts.server";
import { attempt, parseForm, readForm, replyError, replyOk } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { fieldText, useEarlyInput } from "~/lib/use-early-input";
import { useHydrated } from "~/lib/use-hydrated";
import { usePending } from "~/lib/use-pending";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/settings";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Settings", description: "Your GigLedger account settings." });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const emailConfirmed = new URL(request.url).searchParams.get("email") === "confirmed";
  return { firstName: user.firstName, lastName: user.lastName, email: user.email, emailConfirmed };
}

type Intent = "profile" | "password" | "sessions" | "delete";
type ProfileValues = { firstName: string; lastName: string; email: string };
/** What a success that stays on the page answers: its form and, for the profile, what to show. */
type Done = { intent: Intent; profile?: ProfileValues };

const ERROR = "Error";
const FAILED = "Failed to update settings. Please try again.";

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");

  switch (intent) {
    case "profile": {
      const parsed = parseForm(ProfileSettingsSchema, form);
      if (!parsed.ok) return parsed.reply;
      return attempt(
        async () => {
          const { emailChangeStarted } = await updateProfileSettings(
            context,
            user,
            parsed.data,
            request,
          );
          return replyOk<Done>(
            {
              intent: "profile",
              // A new address is shown once confirmed: until then the form shows the stored one.
              profile: emailChangeStarted ? { ...parsed.data, email: user.email } : parsed.data,
            },
            {
              toast: emailChangeStarted
                ? {
                    title: "Email update initiated",
                    description: "Please check your new email address to confirm the change.",
                  }
                : {
                    title: "Settings updated",
                    description: "Your profile information has been saved.",
                  },
            },
          );
        },
        {
          values: parsed.values,
          toastTitle: ERROR,
          failure: { message: FAILED, logger: context.logger, event: "settings update failed" },
        },
      );
    }
    case "password": {
      const parsed = parseForm(ChangePasswordSchema, form);
      if (!parsed.ok) return parsed.reply;
      const result = await attempt(() => changePassword(context, user, parsed.data, request), {
        values: parsed.values,
        toastTitle: ERROR,
      });
      if (!(result instanceof Headers)) return result;
      // The old session is gone: redirect so the next page loads with the new session cookie.
      return redirectWithToast(
        "/settings",
        { title: "Password updated", description: "You were signed out on your other devices." },
        { headers: result },
      );
    }
    case "sessions": {
      await revokeOtherSessions(context, user, request);
      return replyOk<Done>(
        { intent: "sessions" },
        {
          toast: {
            title: "Signed out elsewhere",
            description: "All your other devices are signed out.",
          },
        },
      );
    }
    case "delete": {
      const parsed = parseForm(DeleteAccountSchema, form);
      if (!parsed.ok) return parsed.reply;
      const result = await attempt(() => deleteAccount(context, user, parsed.data, request), {
        values: parsed.values,
        toastTitle: ERROR,
      });
      if (!(result instanceof Headers)) return result;
      return redirectWithToast(
        "/",
        { title: "Account deleted", description: "Your account and data have been deleted." },
        { headers: result },
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

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  const id = `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-title`;
  return (
    <Card as="section" aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      <div className="mt-5">{children}</div>
    </Card>
  );
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  useToastOn(actionData, actionData?.toast);
  const stored: ProfileValues = {
    firstName: loaderData.firstName,
    lastName: loaderData.lastName,
    email: loaderData.email,
  };
  // A refused form is the one whose fields came back (its intent is among them).
  const errorsFor = (intent: Intent) =>
    actionData && !actionData.ok && actionData.values?.intent === intent ? actionData : undefined;
  const refusedProfile = errorsFor("profile")?.values;
  const initial: ProfileValues = actionData?.ok
    ? (actionData.value?.profile ?? stored)
    : refusedProfile
      ? {
          firstName: refusedProfile.firstName ?? "",
          lastName: refusedProfile.lastName ?? "",
          email: refusedProfile.email ?? "",
        }
      : stored;
  const [values, setValues] = useState(initial);
  const profileForm = useRef<HTMLFormElement>(null);
  useEarlyInput(profileForm, (typed) =>
    setValues({
      firstName: fieldText(typed, "firstName"),
      lastName: fieldText(typed, "lastName"),
      email: fieldText(typed, "email"),
    }),
  );
  const hydrated = useHydrated();
  const savingProfile = usePending({ intent: "profile" });
  const busyPassword = usePending({ intent: "password" });
  const busySessions = usePending({ intent: "sessions" });
  const busyDelete = usePending({ intent: "delete" });
  // Save is enabled only when something differs from what is stored (once JavaScript can tell).
  const changed =
    values.firstName !== stored.firstName ||
    values.lastName !== stored.lastName ||
    values.email.toLowerCase() !== stored.email.toLowerCase();

  return (
    <main id="main" className="mx-auto max-w-2xl space-y-6 px-4 py-10">
      <div className="flex items-center gap-3">
        <Link to="/" className={buttonClasses("ghost", "icon")} aria-label="Back">
          <ArrowLeft aria-hidden className="h-5 w-5" />
        </Link>
        <h1 className="text-2xl font-bold">Settings</h1>
      </div>

      {loaderData.emailConfirmed ? (
        <p
          role="status"
          className="flex items-center gap-2 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-800"
        >
          <CheckCircle2 aria-hidden className="h-4 w-4" /> Your new e-mail address is confirmed.
        </p>
      ) : null}

      <Section title="Profile Information">
        <Form ref={profileForm} method="post" className="space-y-4" noValidate>
          <FormError>{errorsFor("profile")?.formError}</FormError>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field
              label="First Name"
              name="firstName"
              autoComplete="given-name"
              value={values.firstName}
              onChange={(e) => setValues({ ...values, firstName: e.target.value })}
              error={errorsFor("profile")?.fieldErrors?.firstName}
            />
            <Field
              label="Last Name"
              name="lastName"
              autoComplete="family-name"
              value={values.lastName}
              onChange={(e) => setValues({ ...values, lastName: e.target.value })}
              error={errorsFor("profile")?.fieldErrors?.lastName}
            />
          </div>
          <Field
            label="Email Address"
            name="email"
            type="email"
            autoComplete="email"
            value={values.email}
            onChange={(e) => setValues({ ...values, email: e.target.value })}
            hint="A new address is used once you confirm it from the mail we send there."
            error={errorsFor("profile")?.fieldErrors?.email}
          />
          <Button
            type="submit"
            name="intent"
            value="profile"
            disabled={savingProfile || (hydrated && !changed)}
          >
            {savingProfile ? <Spinner /> : null} Save Changes
          </Button>
        </Form>
      </Section>

      <Section
        title="Password"
        description="Changing your password signs you out on your other devices."
      >
        <Form method="post" className="space-y-4" noValidate>
          <FormError>{errorsFor("password")?.formError}</FormError>
          <Field
            label="Current Password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            error={errorsFor("password")?.fieldErrors?.currentPassword}
          />
          <Field
            label="New Password"
            name="newPassword"
            type="password"
            autoComplete="new-password"
            minLength={6}
            error={errorsFor("password")?.fieldErrors?.newPassword}
          />
          <Field
            label="Confirm New Password"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            error={errorsFor("password")?.fieldErrors?.confirmPassword}
          />
          <Button
            type="submit"
            name="intent"
            value="password"
            variant="outline"
            disabled={busyPassword}
          >
            Change Password
          </Button>
        </Form>
      </Section>

      <Section
        title="Devices"
        description="Signed in on a device you no longer use? Sign it out from here."
      >
        <Form method="post">
          <Button
            type="submit"
            name="intent"
            value="sessions"
            variant="outline"
            disabled={busySessions}
          >
            Sign out of all other devices
          </Button>
        </Form>
      </Section>

      <Section
        title="Instagram (coming soon)"
        description="Connecting Instagram is not available yet. Once it is, a profile you browse will show how many of the artists you follow on Instagram have played with that artist."
      >
        <Link to="/settings/instagram" className="text-sm text-brand-700 underline">
          What it will do, and what it will read
        </Link>
      </Section>

      <Section
        title="Delete account"
        description="Deletes your profile, sessions, media files, portfolio and messages. Bookings the other party still needs keep their date and amount, with you shown as 'Deleted user'. This cannot be undone."
      >
        <Form method="post" className="space-y-4" noValidate>
          <FormError>{errorsFor("delete")?.formError}</FormError>
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={errorsFor("delete")?.fieldErrors?.password}
          />
          <Button
            type="submit"
            name="intent"
            value="delete"
            variant="destructive"
            disabled={busyDelete}
          >
            Delete account
          </Button>
        </Form>
      </Section>
    </main>
  );
}
