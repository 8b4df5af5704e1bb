import { redirect, redirectDocument } from "react-router";
import { requireUser } from "~/features/accounts/accounts.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { ProviderError } from "~/features/payments/payment-provider";
import { paymentProviderOf } from "~/features/payments/provider.server";
import { attempt } from "~/lib/form.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/bookings.$bookingId.pay";

// "Pay" on a booking paid through GigLedger (docs/product.md, "Payments"): a POST finds or makes
// the payment link for what is due now and sends the browser to the provider's page (303).

export async function loader({ params }: Route.LoaderArgs) {
  return redirect(`/bookings/${params.bookingId}`);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const back = `/bookings/${params.bookingId}`;
  const provider = paymentProviderOf(context.env);
  if (!provider) return redirect(back, 303);
  return attempt(
    async () => {
      try {
        const url = await startCheckout(
          context,
          provider,
          { userId: user.id, name: user.name, email: user.email },
          params.bookingId,
        );
        // A document redirect: the provider's page is not a route of this app (with JavaScript, a
        // plain redirect would be followed inside the app and meet its 404).
        return redirectDocument(url, 303);
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        context.logger.warn({ err: error.message }, "payment link not made");
        return redirectWithToast(
          back,
          {
            title: "Payment could not start",
            description:
              "The payment provider did not answer. Nothing was charged; please try again in a minute.",
            variant: "destructive",
          },
          { status: 303 },
        );
      }
    },
    { redirectTo: back, toastTitle: "Payment could not start" },
  );
}
