import { getCurrentUser } from "~/features/accounts/accounts.server";
import { agreementForParty } from "~/features/agreements/agreements.server";
import { notFound } from "~/lib/form.server";
import type { Route } from "./+types/bookings.$bookingId.agreement-json";

/** agreement.json: the exact signed bytes, for the booking's two parties only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  const asked = new URL(request.url).searchParams.get("sha256");
  const found = await agreementForParty(context.db, user, params.bookingId, asked);
  if (!found) notFound();
  const { agreement } = found;
  return new Response(agreement.json, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="agreement-${agreement.sha256.slice(0, 12)}.json"`,
      "cache-control": "private, no-store",
    },
  });
}
