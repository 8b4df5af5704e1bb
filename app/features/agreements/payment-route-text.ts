import type { OfferDocument } from "./agreement-document";

/**
 * How an offer is paid, in the words the agreement page, its PDF and the booking page all use
 * (docs/product.md, "Payments").
 */
export function paymentRouteText(payments: OfferDocument["payments"]): string {
  if (payments.paidThrough !== "gigledger")
    return "Paid directly between the client and the artist, not through GigLedger.";
  const commission = (payments.commissionBps ?? 0) / 100;
  return `Paid through GigLedger: the client pays the agreed amounts to GigLedger's payment provider, which holds the artist's share until 48 hours after the event; GigLedger's commission of ${commission} % plus GST on it comes out of the artist's share.`;
}
