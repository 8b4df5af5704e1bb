import type { StoredOffer } from "~/features/agreements/agreements.server";
import { formatLongDate, formatWallClock } from "~/lib/dates";
import { composeMail, type Mail } from "~/lib/mail.server";
import { formatPaise } from "~/lib/money-text";

// The mails of a booking's quotes (docs/product.md, "Quotes and agreements"). Each returns null
// when its recipient has no address any more (a deleted account).

type Parties = { artistName: string; clientName: string; eventDate: string };

const hasAddress = (to: string | null): to is string => Boolean(to && to !== "N/A");

export const quoteMails = {
  /** To the client: the artist's quote, with its total, deposit, policy and expiry. */
  quoteSent(to: string | null, b: Parties, offer: StoredOffer, url: string): Mail | null {
    if (!hasAddress(to)) return null;
    const d = offer.document;
    return composeMail(to, `${b.artistName} sent you a quote for ${formatLongDate(d.event.date)}`, [
      `Hi ${b.clientName},`,
      `${b.artistName} sent you a quote (version ${d.version}) for ${formatLongDate(d.event.date)}.`,
      [
        ...d.price.lines.map((line) => `${line.label}: ${formatPaise(line.amountPaise)}`),
        `Total: ${formatPaise(d.price.totalPaise)}`,
        `Deposit: ${formatPaise(d.payments.depositPaise)}`,
        `Cancellation policy: ${d.cancellation.policyName}`,
      ].join("\n"),
      d.expiresAt
        ? `The quote is open until ${formatWallClock(d.expiresAt, d.event.timeZone, { withZone: true })}. Accept it, ask for changes or decline it here:`
        : "Accept it, ask for changes or decline it here:",
      url,
    ]);
  },

  /** To the artist: the client accepted the quote; the agreement's hash. */
  quoteAccepted(to: string | null, b: Parties, agreementSha256: string, url: string): Mail | null {
    if (!hasAddress(to)) return null;
    return composeMail(to, `${b.clientName} accepted your quote`, [
      `Hi ${b.artistName},`,
      `${b.clientName} accepted your quote. The booking is agreed, and its signed agreement is on the booking page.`,
      `Agreement hash (SHA-256): ${agreementSha256}`,
      url,
    ]);
  },

  /** To the artist: the client asks for changes. */
  changesAsked(to: string | null, b: Parties, message: string, url: string): Mail | null {
    if (!hasAddress(to)) return null;
    return composeMail(to, `${b.clientName} asked for changes to your quote`, [
      `Hi ${b.artistName},`,
      `${b.clientName} asked for changes to your quote for ${formatLongDate(b.eventDate)}:`,
      message,
      "Send a revised quote here:",
      url,
    ]);
  },

  /** To the artist: the client declined the quote (and with it the request, when it was one). */
  quoteDeclined(to: string | null, b: Parties, endsRequest: boolean, url: string): Mail | null {
    if (!hasAddress(to)) return null;
    return composeMail(to, `${b.clientName} declined your quote`, [
      `Hi ${b.artistName},`,
      endsRequest
        ? `${b.clientName} declined your quote for ${formatLongDate(b.eventDate)}, and with it the request.`
        : `${b.clientName} declined your proposed change for ${formatLongDate(b.eventDate)}. The booking stays as agreed.`,
      url,
    ]);
  },
};
