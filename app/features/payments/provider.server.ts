import type { Env } from "~/lib/env.server";
import type { PaymentProvider } from "./payment-provider";
import { createRazorpayClient } from "./razorpay-client.server";

/**
 * The payment provider the app talks to (docs/decisions/055): Razorpay, or the embedded
 * Razorpay-compatible provider at /dev/psp through the same client; null when payments are off.
 */
export function paymentProviderOf(env: Pick<Env, "payments">): PaymentProvider | null {
  const config = env.payments;
  if (config.mode === "off") return null;
  return createRazorpayClient({
    keyId: config.keyId,
    keySecret: config.keySecret,
    baseUrl: config.apiBase,
  });
}
