import type { CancellationTerms } from "~/features/terms/terms-types";
import { addDays } from "~/lib/dates";
import { shareOf } from "~/lib/money";
import type { OfferDocument, OfferLine } from "./agreement-document";

/** The booking's facts an offer repeats (the parties and the performance). */
export type OfferFacts = {
  bookingId: string;
  artist: OfferDocument["artist"];
  client: OfferDocument["client"];
  event: OfferDocument["event"];
};

/** What the party making the offer chose. */
export type OfferChoices = {
  kind: OfferDocument["madeAs"];
  lines: OfferLine[];
  depositBps: number;
  balanceDueDays: number;
  cancellation: CancellationTerms;
  included: string[];
  notes: string | null;
  /** For a request: the hash of the artist's published terms the client saw. */
  publishedTermsSha256?: string;
  /** Paid through GigLedger (the artist set up payouts) with this commission, or directly. */
  paidThrough?: { route: "direct" } | { route: "gigledger"; commissionBps: number };
};

/**
 * An offer's document, before its version is known: deposit and balance in paise from the lines'
 * total, the balance due date counted back from the event's date.
 */
export function offerDocumentOf(
  facts: OfferFacts,
  choices: OfferChoices,
  at: { issuedAt: Date; expiresAt: Date | null; version: number; versionId: string },
): OfferDocument {
  const totalPaise = choices.lines.reduce((sum, line) => sum + line.amountPaise, 0);
  const depositPaise = shareOf(totalPaise, choices.depositBps);
  return {
    type: "GigLedgerOffer",
    schemaVersion: 1,
    bookingId: facts.bookingId,
    version: at.version,
    versionId: at.versionId,
    madeAs: choices.kind,
    artist: facts.artist,
    client: facts.client,
    event: facts.event,
    price: { currency: "INR", totalPaise, lines: choices.lines },
    payments: {
      depositBps: choices.depositBps,
      depositPaise,
      balancePaise: totalPaise - depositPaise,
      balanceDueDays: choices.balanceDueDays,
      balanceDueDate: addDays(facts.event.date, -choices.balanceDueDays),
      ...(choices.paidThrough?.route === "gigledger"
        ? { paidThrough: "gigledger" as const, commissionBps: choices.paidThrough.commissionBps }
        : { paidThrough: "direct" as const }),
    },
    included: choices.included,
    notes: choices.notes,
    cancellation: choices.cancellation,
    ...(choices.publishedTermsSha256 ? { publishedTermsSha256: choices.publishedTermsSha256 } : {}),
    issuedAt: at.issuedAt.toISOString(),
    expiresAt: at.expiresAt?.toISOString() ?? null,
  };
}
