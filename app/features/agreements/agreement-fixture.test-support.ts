import { randomUUID } from "node:crypto";
import { policyTerms } from "~/features/terms/policies";
import type { AgreementDocument, OfferDocument } from "./agreement-document";
import { offerHashOf } from "./agreement-seal.server";

// A realistic agreement for tests: a wedding in Mumbai on the moderate policy, the client and
// venue written in Devanagari. Override any part; ids are fresh each call.

export function offerFixture(overrides: Partial<OfferDocument> = {}): OfferDocument {
  const bookingId = overrides.bookingId ?? randomUUID();
  return {
    type: "GigLedgerOffer",
    schemaVersion: 1,
    bookingId,
    version: 2,
    versionId: randomUUID(),
    madeAs: "quote",
    artist: { profileId: randomUUID(), userId: randomUUID(), name: "Asha Rao" },
    client: { userId: randomUUID(), name: "विक्रम शर्मा" },
    event: {
      date: "2027-02-14",
      startTime: "19:30",
      timeZone: "Asia/Kolkata",
      durationMinutes: 150,
      venue: "मुंबई हॉल, Bandra West, Mumbai",
      eventType: "Wedding",
      eventName: "Sangeet night",
    },
    price: {
      currency: "INR",
      totalPaise: 12500000,
      lines: [
        { label: "Performance, 2 hours 30 minutes", amountPaise: 11250000 },
        { label: "Travel", amountPaise: 1250000 },
      ],
    },
    payments: {
      depositBps: 3000,
      depositPaise: 3750000,
      balancePaise: 8750000,
      balanceDueDays: 7,
      balanceDueDate: "2027-02-07",
      paidThrough: "direct",
    },
    included: ["Two 60-minute sets", "Own sound system for 150 guests"],
    notes: "Sound check at 6:30 PM. शादी मुबारक!",
    cancellation: policyTerms("moderate"),
    issuedAt: "2026-11-20T10:00:00.000Z",
    expiresAt: "2026-11-27T10:00:00.000Z",
    ...overrides,
  };
}

/** Both parties accepted `offer` (by default a fresh offerFixture()), frozen at the client's acceptance. */
export function agreementFixture(
  overrides: Partial<AgreementDocument> & { offer?: OfferDocument } = {},
): AgreementDocument {
  const offer = overrides.offer ?? offerFixture();
  const { sha256 } = offerHashOf(offer);
  return {
    type: "GigLedgerAgreement",
    schemaVersion: 1,
    bookingId: offer.bookingId,
    offer,
    offerSha256: sha256,
    acceptances: [
      {
        party: "artist",
        userId: offer.artist.userId,
        name: offer.artist.name,
        acceptedAt: offer.issuedAt,
        sha256Shown: sha256,
      },
      {
        party: "client",
        userId: offer.client.userId,
        name: offer.client.name,
        acceptedAt: "2026-11-21T09:15:00.000Z",
        sha256Shown: sha256,
      },
    ],
    frozenAt: "2026-11-21T09:15:00.000Z",
    supersedes: null,
    ...overrides,
  };
}
