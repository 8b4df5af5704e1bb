import { Form, Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { requireUser } from "~/features/accounts/accounts.server";
import { ProviderError } from "~/features/payments/payment-provider";
import { PayoutSetupSchema } from "~/features/payments/payout-setup";
import { payoutAccountOf, payoutsOf, setUpPayouts } from "~/features/payments/payouts.server";
import { paymentProviderOf } from "~/features/payments/provider.server";
import { formatLongDate, formatWallClock } from "~/lib/dates";
import { parseForm, readForm, replyError } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { formatPaise } from "~/lib/money-text";
import { redirectWithToast } from "~/lib/toast.server";
import { usePending } from "~/lib/use-pending";
import type { Route } from "./+types/settings.payouts";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({
    title: "Payouts",
    description: "Where GigLedger sends your share of bookings paid through the platform.",
  }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!user.artistProfileId) return { kind: "not-artist" as const };
  if (context.env.payments.mode === "off") return { kind: "off" as const };
  const [account, payouts] = await Promise.all([
    payoutAccountOf(context.db, user.artistProfileId),
    payoutsOf(context.db, user.artistProfileId),
  ]);
  return {
    kind: "artist" as const,
    payouts,
    timeZone: context.env.timeZone,
    account: account
      ? {
          legalName: account.legalName,
          panMasked: account.panMasked,
          method: account.method,
          destination: account.destination,
          updatedAt: account.updatedAt.toISOString(),
        }
      : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const provider = paymentProviderOf(context.env);
  if (!user.artistProfileId || !provider)
    return replyError(403, "Only artists can set up payouts, and only where payments are on.");
  const parsed = parseForm(PayoutSetupSchema, await readForm(request));
  if (!parsed.ok) return parsed.reply;
  try {
    await setUpPayouts(
      context.db,
      provider,
      { artistProfileId: user.artistProfileId, email: user.email },
      parsed.data,
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    context.logger.warn({ err: error.message }, "payout set-up refused");
    return replyError(
      error.isRetryable ? 503 : 400,
      error.isRetryable
        ? "The payment provider did not answer. Nothing was changed; please try again in a minute."
        : `The payment provider refused these details: ${error.message}`,
    );
  }
  return redirectWithToast(
    "/settings/payouts",
    {
      title: "Payouts set up",
      description: "New bookings are paid through GigLedger and your share is sent here.",
    },
    { status: 303 },
  );
}

export default function PayoutSettings({ loaderData, actionData }: Route.ComponentProps) {
  const busy = usePending();
  if (loaderData.kind !== "artist") {
    return (
      <main id="main" className="mx-auto max-w-xl px-4 py-16">
        <h1 className="text-2xl font-bold">Payouts</h1>
        <p className="mt-3 text-slate-700">
          {loaderData.kind === "off"
            ? "Payments through GigLedger are not switched on here: bookings are paid directly between client and artist."
            : "Payouts are for artists: set up an artist profile first."}
        </p>
        <Link to="/settings" className="mt-6 inline-block text-brand-700 underline">
          Back to Settings
        </Link>
      </main>
    );
  }
  const errors = actionData && "fieldErrors" in actionData ? (actionData.fieldErrors ?? {}) : {};
  const values = actionData && "values" in actionData ? (actionData.values ?? {}) : {};
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  const { account, timeZone } = loaderData;
  const method = values.method ?? account?.method ?? "upi";
  return (
    <main id="main" className="mx-auto max-w-2xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          Back to Settings
        </Link>
        <h1 className="mt-2 text-3xl font-bold">Payouts</h1>
        <p className="mt-2 text-slate-700">
          With payouts set up, clients pay through GigLedger: the deposit confirms the booking, and
          your share is released 48 hours after the event, less GigLedger's 10 % commission and GST
          on it. Without it, clients pay you directly, as the agreement says.
        </p>
      </div>
      {account ? (
        <Card as="section" aria-labelledby="current-title">
          <h2 id="current-title" className="text-lg font-semibold">
            Paid to
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-slate-600">Name</dt>
            <dd>{account.legalName}</dd>
            <dt className="text-slate-600">PAN</dt>
            <dd>{account.panMasked}</dd>
            <dt className="text-slate-600">To</dt>
            <dd className="break-words">{account.destination}</dd>
          </dl>
        </Card>
      ) : null}
      {loaderData.payouts.lines.length > 0 ? (
        <Card as="section" aria-labelledby="payouts-title">
          <h2 id="payouts-title" className="text-lg font-semibold">
            Your payouts
          </h2>
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            {(
              [
                ["Paid by clients", loaderData.payouts.totals.paidPaise],
                ["Refunded", loaderData.payouts.totals.refundedPaise],
                ["Held for you", loaderData.payouts.totals.heldPaise],
                ["Released", loaderData.payouts.totals.releasedPaise],
              ] as const
            ).map(([label, paise]) => (
              <div key={label} className="rounded-lg bg-slate-50 p-3">
                <dt className="text-slate-600">{label}</dt>
                <dd className="font-semibold tabular-nums">{formatPaise(paise)}</dd>
              </div>
            ))}
          </dl>
          <ul className="mt-4 divide-y divide-slate-200 text-sm">
            {loaderData.payouts.lines.map((line) => (
              <li key={line.bookingId} className="py-3">
                <Link
                  to={`/bookings/${line.bookingId}`}
                  className="font-medium text-brand-700 underline"
                >
                  {formatLongDate(line.eventDate)} · {line.clientName}
                </Link>
                <p className="mt-1 text-slate-700">
                  Paid {formatPaise(line.paidPaise)}
                  {line.refundedPaise > 0 ? ` · refunded ${formatPaise(line.refundedPaise)}` : ""}
                  {line.heldPaise > 0
                    ? ` · held ${formatPaise(line.heldPaise)}${line.releaseAt ? ` until ${formatWallClock(line.releaseAt, timeZone, { withZone: true })}` : ""}`
                    : ""}
                  {line.releasedPaise > 0
                    ? ` · released ${formatPaise(line.releasedPaise)}${line.releasedAt ? ` on ${formatWallClock(line.releasedAt, timeZone, { withZone: true })}` : ""}`
                    : ""}
                </p>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card as="section" aria-labelledby="form-title">
        <h2 id="form-title" className="text-lg font-semibold">
          {account ? "Change where you are paid" : "Set up payouts"}
        </h2>
        {formError ? (
          <p role="alert" className="mt-3 rounded-lg bg-red-50 p-3 text-sm text-red-900">
            {formError}
          </p>
        ) : null}
        {/* A new key after each save: the form starts empty again, the PAN is not left on screen. */}
        <Form method="post" className="mt-4 space-y-4" noValidate key={account?.updatedAt ?? "new"}>
          <Field
            label="Legal name (as on your PAN card)"
            name="legalName"
            autoComplete="name"
            required
            defaultValue={values.legalName ?? account?.legalName ?? ""}
            error={errors.legalName}
          />
          <Field
            label="PAN"
            name="pan"
            required
            maxLength={10}
            autoCapitalize="characters"
            defaultValue={values.pan ?? ""}
            error={errors.pan}
            hint="Needed by the payment provider to pay you; GigLedger keeps only a masked copy."
          />
          <fieldset>
            <legend className="text-sm font-medium text-slate-800">Paid to</legend>
            <div className="mt-2 flex flex-wrap gap-4">
              <label className="flex items-center gap-2">
                <input type="radio" name="method" value="upi" defaultChecked={method === "upi"} />
                UPI address
              </label>
              <label className="flex items-center gap-2">
                <input type="radio" name="method" value="bank" defaultChecked={method === "bank"} />
                Bank account
              </label>
            </div>
            {errors.method ? <p className="mt-1 text-sm text-red-700">{errors.method}</p> : null}
          </fieldset>
          <Field
            label="UPI address (if paid by UPI)"
            name="upi"
            autoComplete="off"
            defaultValue={values.upi ?? ""}
            error={errors.upi}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label="Account number (if paid to a bank)"
              name="accountNumber"
              inputMode="numeric"
              autoComplete="off"
              defaultValue={values.accountNumber ?? ""}
              error={errors.accountNumber}
            />
            <Field
              label="IFSC"
              name="ifsc"
              autoCapitalize="characters"
              maxLength={11}
              defaultValue={values.ifsc ?? ""}
              error={errors.ifsc}
            />
          </div>
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : account ? "Save payout details" : "Set up payouts"}
          </Button>
        </Form>
      </Card>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
