import { getCurrentUser } from "~/features/accounts/accounts.server";
import { renderAgreementPdf } from "~/features/agreements/agreement-pdf.server";
import { agreementForParty } from "~/features/agreements/agreements.server";
import { notFound } from "~/lib/form.server";
import type { Route } from "./+types/bookings.$bookingId.agreement-pdf";

/** The agreement as a PDF with agreement.json inside it, for the booking's two parties only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  const asked = new URL(request.url).searchParams.get("sha256");
  const found = await agreementForParty(context.db, user, params.bookingId, asked);
  if (!found) notFound();
  const { agreement } = found;
  const pdf = await renderAgreementPdf(agreement.json);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="agreement-${agreement.sha256.slice(0, 12)}.pdf"`,
      "cache-control": "private, no-store",
    },
  });
}
