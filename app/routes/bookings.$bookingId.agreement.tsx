import { Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { ServerMarkup } from "~/components/ui/server-markup";
import { requireUser } from "~/features/accounts/accounts.server";
import { AgreementView } from "~/features/agreements/agreement-view";
import { agreementForParty } from "~/features/agreements/agreements.server";
import { notFound } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { renderMarkup } from "~/lib/server-markup.server";
import type { Route } from "./+types/bookings.$bookingId.agreement";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Booking agreement", description: "A signed booking agreement." }),
  { name: "robots", content: "noindex" },
];

/** The booking's signed agreement, for its two parties only (anyone else: not found). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const asked = new URL(request.url).searchParams.get("sha256");
  const found = await agreementForParty(context.db, user, params.bookingId, asked);
  if (!found) notFound();
  const { agreement, all } = found;
  return {
    bookingId: params.bookingId,
    sha256: agreement.sha256,
    others: all
      .filter((a) => a.sha256 !== agreement.sha256)
      .map((a) => ({ sha256: a.sha256, status: a.status })),
    markup: renderMarkup(
      { request, context },
      <AgreementView
        signed={agreement.signed}
        status={agreement.status}
        bookingId={params.bookingId}
      />,
    ),
  };
}

export default function AgreementPage({ loaderData }: Route.ComponentProps) {
  const { bookingId, sha256, others, markup } = loaderData;
  const query = `?sha256=${sha256}`;
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-8 print:max-w-none print:p-0">
      <p className="text-sm print:hidden">
        <Link to={`/bookings/${bookingId}`} className="text-brand-700 underline">
          ← Back to the booking
        </Link>
      </p>
      <ServerMarkup markup={markup} />
      <p className="flex flex-wrap gap-2 print:hidden">
        <a
          href={`/bookings/${bookingId}/agreement.pdf${query}`}
          download
          className={buttonClasses("primary", "md")}
        >
          Download PDF
        </a>
        <a
          href={`/bookings/${bookingId}/agreement.json${query}`}
          download
          className={buttonClasses("outline", "md")}
        >
          Download agreement.json
        </a>
      </p>
      {others.length > 0 ? (
        <section aria-labelledby="others-title" className="text-sm print:hidden">
          <h2 id="others-title" className="font-semibold">
            Other agreements of this booking
          </h2>
          <ul className="mt-1 list-disc pl-5">
            {others.map((a) => (
              <li key={a.sha256}>
                <Link
                  to={`/bookings/${bookingId}/agreement?sha256=${a.sha256}`}
                  className="break-all text-brand-700 underline"
                >
                  {a.sha256.slice(0, 16)}…
                </Link>{" "}
                ({a.status === "in_force" ? "in force" : a.status})
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
