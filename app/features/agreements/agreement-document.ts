// What an offer and an agreement say, as data: plain types shared by the server that freezes and
// signs them, the PDF, the page, and every checker (docs/decisions/047). No server code here.

import type { CancellationTerms } from "~/features/terms/terms-types";

export type OfferLine = { label: string; amountPaise: number };

/**
 * One version of the terms for a booking: version 1 is the client's request on the artist's
 * published terms; every later version is the artist's quote. Its canonical JSON (RFC 8785) is
 * hashed; each party accepts that hash.
 */
export type OfferDocument = {
  type: "GigLedgerOffer";
  schemaVersion: 1;
  bookingId: string;
  version: number;
  versionId: string;
  /** "request": the client's request on the published terms; "quote": the artist's quote. */
  madeAs: "request" | "quote";
  artist: { profileId: string; userId: string; name: string };
  client: { userId: string; name: string };
  event: {
    date: string;
    /** "HH:MM" in the artist's zone, or null when the request named none. */
    startTime: string | null;
    timeZone: string;
    durationMinutes: number;
    venue: string;
    eventType: string;
    eventName: string | null;
  };
  price: { currency: "INR"; totalPaise: number; lines: OfferLine[] };
  payments: {
    depositBps: number;
    depositPaise: number;
    balancePaise: number;
    /** 0 = on the day. */
    balanceDueDays: number;
    balanceDueDate: string;
    /** "direct": paid between the parties, not through GigLedger. */
    paidThrough: "direct" | "gigledger";
    /** Paid through GigLedger: the commission the artist agreed to, in basis points of what they keep. */
    commissionBps?: number;
  };
  included: string[];
  notes: string | null;
  cancellation: CancellationTerms;
  /**
   * A request only: the SHA-256 of the artist's published terms (deposit, balance due, policy)
   * as the client saw them on the request form.
   */
  publishedTermsSha256?: string;
  issuedAt: string;
  /** Quotes expire; a request's offer does not (it lapses with the request). */
  expiresAt: string | null;
};

export type Acceptance = {
  party: "artist" | "client";
  userId: string;
  name: string;
  acceptedAt: string;
  /** The offer hash the page showed the party when they accepted. */
  sha256Shown: string;
};

/** Both parties accepted the same offer: frozen, hashed and signed. */
export type AgreementDocument = {
  type: "GigLedgerAgreement";
  schemaVersion: 1;
  bookingId: string;
  offer: OfferDocument;
  /** SHA-256 (hex) of the offer's canonical JSON: what both accepted. */
  offerSha256: string;
  acceptances: Acceptance[];
  frozenAt: string;
  /** The hash of the agreement this one replaces (a change both accepted), or null. */
  supersedes: string | null;
};

/**
 * agreement.json: the agreement and GigLedger's signature. `sha256` is the SHA-256 (hex) of the
 * agreement's canonical JSON; `value` is the Ed25519 signature (base64url) over those 32 bytes by
 * the key `publicKeyMultibase`, which the site publishes in its did.json as `verificationMethod`.
 * The file itself is written as canonical JSON too.
 */
export type SignedAgreement = {
  agreement: AgreementDocument;
  signature: {
    type: "GigLedgerAgreementSignature";
    algorithm: "Ed25519";
    canonicalization: "RFC8785";
    hashAlgorithm: "SHA-256";
    sha256: string;
    signer: string;
    verificationMethod: string;
    publicKeyMultibase: string;
    value: string;
  };
};
