import { Form, Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormError } from "~/components/ui/field";
import { TextareaField } from "~/components/ui/textarea-field";
import { requireUser } from "~/features/accounts/accounts.server";
import { CLIENT_COMMENT_MAX } from "~/features/bookings/client-rating-rules";
import {
  ClientRatingSchema,
  clientRatingState,
  rateClient,
} from "~/features/bookings/client-ratings.server";
import { formatLongDate } from "~/lib/date-text";
import { notFound, parseForm, readForm, replyProblem } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { isProblem } from "~/lib/problem";
import { redirectWithToast } from "~/lib/toast.server";
import { usePending } from "~/lib/use-pending";
import type { Route } from "./+types/bookings.$bookingId.rate-client";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Rate the client", description: "How the booking went with the client." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const state = await clientRatingState(context, user, params.bookingId);
  if (!state) notFound();
  return state;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const parsed = parseForm(ClientRatingSchema, await readForm(request));
  if (!parsed.ok) return parsed.reply;
  try {
    await rateClient(context, user, params.bookingId, parsed.data);
  } catch (error) {
    if (isProblem(error)) return replyProblem(error, { values: parsed.values });
    throw error;
  }
  return redirectWithToast(
    `/bookings/${params.bookingId}`,
    { title: "Client rated", description: "Other artists see it on this client's requests." },
    { status: 303 },
  );
}

export default function RateClient({ loaderData, actionData }: Route.ComponentProps) {
  const busy = usePending();
  const errors = actionData && "fieldErrors" in actionData ? (actionData.fieldErrors ?? {}) : {};
  const values = actionData && "values" in actionData ? (actionData.values ?? {}) : {};
  const formError = actionData && "formError" in actionData ? actionData.formError : undefined;
  return (
    <main id="main" className="mx-auto max-w-xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <Link to={`/bookings/${loaderData.bookingId}`} className="text-sm text-brand-700 underline">
          Back to the booking
        </Link>
        <h1 className="mt-2 text-3xl font-bold">Rate {loaderData.clientName}</h1>
        <p className="mt-2 text-slate-700">
          The booking for {formatLongDate(loaderData.eventDate)}. Other artists see your rating
          beside this client's record when the client asks them for a booking.
        </p>
      </div>
      <Card as="section" aria-labelledby="rate-title">
        <h2 id="rate-title" className="text-lg font-semibold">
          {loaderData.given ? "Your rating" : "How did it go?"}
        </h2>
        {loaderData.given ? (
          <p className="mt-2">
            {loaderData.given.stars} of 5
            {loaderData.given.comment ? `: “${loaderData.given.comment}”` : ""}
          </p>
        ) : loaderData.canRate ? (
          <Form method="post" className="mt-3 space-y-4">
            <FormError>{formError}</FormError>
            <fieldset>
              <legend className="font-medium">Stars</legend>
              <div className="mt-2 flex flex-wrap gap-4">
                {[1, 2, 3, 4, 5].map((n) => (
                  <label key={n} className="flex items-center gap-1">
                    <input
                      type="radio"
                      name="stars"
                      value={n}
                      required
                      defaultChecked={values.stars === String(n)}
                    />
                    {n}
                  </label>
                ))}
              </div>
              {errors.stars ? <p className="mt-1 text-sm text-red-700">{errors.stars}</p> : null}
            </fieldset>
            <TextareaField
              label="A few words (optional)"
              name="comment"
              rows={3}
              maxLength={CLIENT_COMMENT_MAX}
              defaultValue={values.comment}
              error={errors.comment}
            />
            <Button type="submit" disabled={busy}>
              Rate the client
            </Button>
          </Form>
        ) : (
          <p className="mt-2 text-slate-700">
            You can rate the client once the booking is completed.
          </p>
        )}
      </Card>
    </main>
  );
}

export { RouteErrorBoundary as ErrorBoundary };
