import { redirect } from "react-router";
import { returnFromCheckout } from "~/features/payments/checkout.server";
import { paymentProviderOf } from "~/features/payments/provider.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/payments.return";

// Where the provider's page sends the payer back (docs/product.md, "Payments"). The return never
// confirms anything: only the provider's event does. A signed return says "confirming".

export async function loader({ request, context }: Route.LoaderArgs) {
  const provider = paymentProviderOf(context.env);
  const query = new URL(request.url).searchParams;
  const back = provider ? await returnFromCheckout(context.db, provider, query) : null;
  if (!back) return redirect("/bookings");
  return redirectWithToast(
    `/bookings/${back.bookingId}`,
    back.paid
      ? {
          title: "Thank you: confirming your payment",
          description:
            "The payment provider is confirming it with your bank; this page shows it as soon as it arrives.",
        }
      : { title: "Payment not completed", description: "Nothing was charged. You can try again." },
  );
}
