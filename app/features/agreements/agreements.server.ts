import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Env } from "~/lib/env.server";
import { isUuid } from "~/lib/ids";
import { type Queryable, queryRows, readEach } from "~db/client";
import type { OFFER_STATUSES } from "~db/enums";
import type {
  Acceptance,
  AgreementDocument,
  OfferDocument,
  SignedAgreement,
} from "./agreement-document";
import { queueAgreementMails } from "./agreement-mails.server";
import { offerHashOf, sealAgreement } from "./agreement-seal.server";
import { type OfferChoices, type OfferFacts, offerDocumentOf } from "./offer-document";

// Offers, acceptances and agreements as stored (docs/decisions/047). Every write here runs in the
// caller's transaction, which holds the booking's row: the booking's rules (who, when, which
// status) are the bookings feature's; these functions keep the record.

export type OfferStatus = (typeof OFFER_STATUSES)[number];
export type Party = Acceptance["party"];

export type StoredOffer = {
  id: string;
  bookingId: string;
  version: number;
  kind: OfferDocument["madeAs"];
  status: OfferStatus;
  sha256: string;
  expiresAt: Date | null;
  createdAt: Date;
  document: OfferDocument;
};

type OfferRow = Omit<StoredOffer, "document"> & { canonical: string };

/** Raw queries give timestamps as the driver parses them (a string on some): always a Date. */
const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const asDateOrNull = (value: Date | string | null) => (value === null ? null : asDate(value));

const toOffer = ({ canonical, ...row }: OfferRow): StoredOffer => ({
  ...row,
  expiresAt: asDateOrNull(row.expiresAt),
  createdAt: asDate(row.createdAt),
  document: JSON.parse(canonical) as OfferDocument,
});

const OFFER_COLUMNS = sql`id, booking_id AS "bookingId", version, kind, status, sha256,
  expires_at AS "expiresAt", created_at AS "createdAt", canonical`;

/** The booking's open offer (at most one), locked when `forUpdate`. */
export async function openOfferOf(
  tx: Queryable,
  bookingId: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredOffer | null> {
  const [row] = await queryRows<OfferRow>(
    tx,
    sql`SELECT ${OFFER_COLUMNS} FROM offers WHERE booking_id = ${bookingId} AND status = 'open'
      ${options.forUpdate ? sql`FOR UPDATE` : sql``}`,
  );
  return row ? toOffer(row) : null;
}

/** How many versions the booking has had. */
export async function offerCountOf(tx: Queryable, bookingId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM offers WHERE booking_id = ${bookingId}`,
  );
  return row?.n ?? 0;
}

/**
 * A new version of the booking's terms: the open one (if any) is superseded, the new one is open
 * and, as its maker's word, accepted by them at once (a request by the client, a quote by the
 * artist). Returns the stored offer.
 */
export async function addOffer(
  tx: Queryable,
  input: {
    facts: OfferFacts;
    choices: OfferChoices;
    maker: { party: Party; userId: string; name: string; ip?: string; userAgent?: string };
    at: Date;
    expiresAt: Date | null;
  },
): Promise<StoredOffer> {
  const { facts, choices, maker, at, expiresAt } = input;
  await closeOpenOffer(tx, facts.bookingId, "superseded", at);
  const version = (await offerCountOf(tx, facts.bookingId)) + 1;
  const document = offerDocumentOf(facts, choices, {
    issuedAt: at,
    expiresAt,
    version,
    versionId: randomUUID(),
  });
  const { canonical, sha256 } = offerHashOf(document);
  const [row] = await queryRows<OfferRow>(
    tx,
    sql`INSERT INTO offers (id, booking_id, version, kind, status, total_paise, expires_at,
          canonical, sha256, created_by, created_at)
        VALUES (${document.versionId}, ${facts.bookingId}, ${version}, ${choices.kind}, 'open',
          ${document.price.totalPaise}, ${expiresAt?.toISOString() ?? null}, ${canonical},
          ${sha256}, ${maker.userId}, ${at.toISOString()})
        RETURNING ${OFFER_COLUMNS}`,
  );
  if (!row) throw new Error("The offer was not stored");
  await recordAcceptance(tx, {
    offerId: row.id,
    party: maker.party,
    userId: maker.userId,
    sha256Shown: sha256,
    at,
    ip: maker.ip,
    userAgent: maker.userAgent,
  });
  return toOffer(row);
}

/** Ends the open offer, if any, with `status`. */
export async function closeOpenOffer(
  tx: Queryable,
  bookingId: string,
  status: Exclude<OfferStatus, "open">,
  at: Date,
) {
  await tx.execute(
    sql`UPDATE offers SET status = ${status}, closed_at = ${at.toISOString()}
      WHERE booking_id = ${bookingId} AND status = 'open'`,
  );
}

/** One party's acceptance of an offer, with the hash the page showed them. */
export async function recordAcceptance(
  tx: Queryable,
  input: {
    offerId: string;
    party: Party;
    userId: string;
    sha256Shown: string;
    at: Date;
    ip?: string;
    userAgent?: string;
  },
) {
  await tx.execute(
    sql`INSERT INTO offer_acceptances (offer_id, party, user_id, accepted_at, sha256_shown, ip,
          user_agent)
        VALUES (${input.offerId}, ${input.party}, ${input.userId}, ${input.at.toISOString()},
          ${input.sha256Shown}, ${input.ip ?? null}, ${input.userAgent?.slice(0, 500) ?? null})`,
  );
}

/** The client's "Ask for Changes" on the open quote. */
export async function addChangeRequest(
  tx: Queryable,
  input: {
    offerId: string;
    userId: string;
    message: string;
    wishedTotalPaise: number | null;
    wishedDepositBps: number | null;
    wishedPolicy: string | null;
    at: Date;
  },
) {
  await tx.execute(
    sql`INSERT INTO offer_change_requests (offer_id, requested_by, message, wished_total_paise,
          wished_deposit_bps, wished_policy, created_at)
        VALUES (${input.offerId}, ${input.userId}, ${input.message}, ${input.wishedTotalPaise},
          ${input.wishedDepositBps}, ${input.wishedPolicy}, ${input.at.toISOString()})`,
  );
}

export type StoredAgreement = {
  id: string;
  bookingId: string;
  status: "in_force" | "superseded" | "cancelled";
  json: string;
  sha256: string;
  paidThrough: "direct" | "gigledger";
  frozenAt: Date;
  endedAt: Date | null;
  signed: SignedAgreement;
};

type AgreementRow = Omit<StoredAgreement, "signed">;

const AGREEMENT_COLUMNS = sql`id, booking_id AS "bookingId", status, json, sha256,
  paid_through AS "paidThrough", frozen_at AS "frozenAt", ended_at AS "endedAt"`;

const toAgreement = (row: AgreementRow): StoredAgreement => ({
  ...row,
  frozenAt: asDate(row.frozenAt),
  endedAt: asDateOrNull(row.endedAt),
  signed: JSON.parse(row.json) as SignedAgreement,
});

/**
 * Both parties accepted `offer`: it freezes into a signed agreement, in force; the booking's
 * agreement in force until now (a change both accepted) is superseded and named in the new one.
 */
export async function freezeAgreement(
  tx: Queryable,
  env: Pick<Env, "appUrl" | "credentialSigningKey">,
  input: { offerId: string; at: Date },
): Promise<StoredAgreement> {
  const [offerRow] = await queryRows<OfferRow>(
    tx,
    sql`SELECT ${OFFER_COLUMNS} FROM offers WHERE id = ${input.offerId}`,
  );
  if (!offerRow) throw new Error("No such offer");
  const offer = toOffer(offerRow);
  const acceptances = await queryRows<{
    party: Party;
    userId: string;
    acceptedAt: Date;
    sha256Shown: string;
  }>(
    tx,
    sql`SELECT party, user_id AS "userId", accepted_at AS "acceptedAt",
          sha256_shown AS "sha256Shown"
        FROM offer_acceptances WHERE offer_id = ${offer.id} ORDER BY accepted_at, party`,
  );
  if (acceptances.length !== 2) throw new Error("An agreement needs both parties' acceptance");
  const previous = await agreementInForce(tx, offer.bookingId);
  const names = { artist: offer.document.artist.name, client: offer.document.client.name };
  const agreement: AgreementDocument = {
    type: "GigLedgerAgreement",
    schemaVersion: 1,
    bookingId: offer.bookingId,
    offer: offer.document,
    offerSha256: offer.sha256,
    acceptances: acceptances.map((a) => ({
      party: a.party,
      userId: a.userId,
      name: names[a.party],
      acceptedAt: new Date(a.acceptedAt).toISOString(),
      sha256Shown: a.sha256Shown,
    })),
    frozenAt: input.at.toISOString(),
    supersedes: previous?.sha256 ?? null,
  };
  const sealed = sealAgreement(agreement, env);
  if (previous) {
    await tx.execute(
      sql`UPDATE agreements SET status = 'superseded', ended_at = ${input.at.toISOString()}
        WHERE id = ${previous.id}`,
    );
  }
  await tx.execute(
    sql`UPDATE offers SET status = 'accepted', closed_at = ${input.at.toISOString()}
      WHERE id = ${offer.id}`,
  );
  const [row] = await queryRows<AgreementRow>(
    tx,
    sql`INSERT INTO agreements (booking_id, offer_id, status, json, sha256, paid_through, frozen_at)
        VALUES (${offer.bookingId}, ${offer.id}, 'in_force', ${sealed.json}, ${sealed.sha256},
          ${offer.document.payments.paidThrough}, ${input.at.toISOString()})
        RETURNING ${AGREEMENT_COLUMNS}`,
  );
  if (!row) throw new Error("The agreement was not stored");
  await queueAgreementMails(tx, row.id);
  return toAgreement(row);
}

/** The booking's agreement in force, if any. */
export async function agreementInForce(
  tx: Queryable,
  bookingId: string,
): Promise<StoredAgreement | null> {
  const [row] = await queryRows<AgreementRow>(
    tx,
    sql`SELECT ${AGREEMENT_COLUMNS} FROM agreements
      WHERE booking_id = ${bookingId} AND status = 'in_force'`,
  );
  return row ? toAgreement(row) : null;
}

/** The booking's agreements, newest first (the one in force, or the last one, comes first). */
export async function agreementsOf(tx: Queryable, bookingId: string): Promise<StoredAgreement[]> {
  const rows = await queryRows<AgreementRow>(
    tx,
    sql`SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE booking_id = ${bookingId}
      ORDER BY frozen_at DESC, id`,
  );
  return rows.map(toAgreement);
}

/** A cancelled booking's agreement ends (it stays readable, marked cancelled). */
export async function endAgreement(tx: Queryable, bookingId: string, at: Date) {
  await tx.execute(
    sql`UPDATE agreements SET status = 'cancelled', ended_at = ${at.toISOString()}
      WHERE booking_id = ${bookingId} AND status = 'in_force'`,
  );
}

export type OfferHistoryEntry = StoredOffer & {
  closedAt: Date | null;
  acceptances: { party: Party; acceptedAt: Date; sha256Shown: string }[];
  changeRequests: {
    message: string;
    wishedTotalPaise: number | null;
    wishedDepositBps: number | null;
    wishedPolicy: string | null;
    createdAt: Date;
  }[];
};

/** Every version of the booking's terms, oldest first, with who accepted and what was asked. */
export async function offerHistoryOf(
  tx: Queryable,
  bookingId: string,
): Promise<OfferHistoryEntry[]> {
  const rows = await queryRows<OfferRow & { closedAt: Date | null }>(
    tx,
    sql`SELECT ${OFFER_COLUMNS}, closed_at AS "closedAt" FROM offers
      WHERE booking_id = ${bookingId} ORDER BY version`,
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const idList = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const [acceptances, changes] = await readEach(tx, [
    () =>
      queryRows<{ offerId: string; party: Party; acceptedAt: Date; sha256Shown: string }>(
        tx,
        sql`SELECT offer_id AS "offerId", party, accepted_at AS "acceptedAt",
            sha256_shown AS "sha256Shown"
          FROM offer_acceptances WHERE offer_id IN (${idList}) ORDER BY accepted_at`,
      ),
    () =>
      queryRows<OfferHistoryEntry["changeRequests"][number] & { offerId: string }>(
        tx,
        sql`SELECT offer_id AS "offerId", message, wished_total_paise AS "wishedTotalPaise",
            wished_deposit_bps AS "wishedDepositBps", wished_policy AS "wishedPolicy",
            created_at AS "createdAt"
          FROM offer_change_requests WHERE offer_id IN (${idList}) ORDER BY created_at`,
      ),
  ]);
  return rows.map((row) => ({
    ...toOffer(row),
    closedAt: row.closedAt,
    acceptances: acceptances.filter((a) => a.offerId === row.id).map(({ offerId: _, ...a }) => a),
    changeRequests: changes
      .filter((c) => c.offerId === row.id)
      .map(({ offerId: _, ...c }) => ({
        ...c,
        wishedTotalPaise: c.wishedTotalPaise === null ? null : Number(c.wishedTotalPaise),
      })),
  }));
}

/**
 * What anyone may learn from an agreement's hash: whether GigLedger signed an agreement with it,
 * and whether it is still in force. Nothing else (not the booking, not the parties).
 */
export async function agreementStatusOf(
  db: Queryable,
  sha256: string,
): Promise<StoredAgreement["status"] | null> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
  const [row] = await queryRows<{ status: StoredAgreement["status"] }>(
    db,
    sql`SELECT status FROM agreements WHERE sha256 = ${sha256}`,
  );
  return row?.status ?? null;
}

/**
 * The booking's agreement for one of its two parties (the one with `sha256`, else the one in force
 * or the latest); null for anyone else, as if there were none (decision 047).
 */
export async function agreementForParty(
  db: Queryable,
  actor: { id: string } | null,
  bookingId: string,
  sha256?: string | null,
): Promise<{ agreement: StoredAgreement; all: StoredAgreement[] } | null> {
  if (!actor || !isUuid(bookingId)) return null;
  const all = await agreementsOf(db, bookingId);
  const first = all[0];
  if (!first) return null;
  const { artist, client } = first.signed.agreement.offer;
  if (actor.id !== artist.userId && actor.id !== client.userId) return null;
  const agreement = sha256
    ? all.find((a) => a.sha256 === sha256)
    : (all.find((a) => a.status === "in_force") ?? first);
  return agreement ? { agreement, all } : null;
}
