import { sql } from "drizzle-orm";
import { sessionWithOwner } from "~/features/verification/session-columns.server";
import { LEVEL_INFO, type SessionLevel } from "~/features/verification/verification-levels";
import { sessionLevel } from "~/features/verification/verification-levels.server";
import { fileUrl } from "~/lib/file-url";
import { type Queryable, queryRows } from "~db/client";
import { artistProfiles, musicSessions } from "~db/schema";
import type { SessionClaims } from "./credential";
import type { VerificationLevel } from "./credentials.constants";

/** The evidence of a Paid & agreed gig: the agreement it was paid under, and the fact of payment. */
export const PAID_EVIDENCE_NAME = "Paid through GigLedger";
export const PAID_EVIDENCE_NARRATIVE =
  "Payment: released. The client paid through GigLedger as this agreement says, and the artist's payout was released after the gig with no problem reported.";

type SessionRow = {
  id: string;
  isVerified: boolean;
  verificationMethod: string | null;
  createdAt: Date;
};

/**
 * A session's level for its credential: the verification ladder's own derivation
 * (`sessionLevels`, docs/decisions/017), in the words credentials carry ("Peer-confirmed"),
 * with who verified and when the level was reached.
 */
async function levelOf(
  tx: Queryable,
  session: SessionRow,
  known?: SessionLevel,
): Promise<{
  level: VerificationLevel;
  paid: boolean;
  verifiedBy: string[];
  verifiedAt: Date | null;
}> {
  const found = known ?? (await sessionLevel({ db: tx }, session.id));
  return {
    level: LEVEL_INFO[found.level].label,
    paid: found.level === "paid_and_agreed",
    verifiedBy: found.verifiers.map((v) => v.name),
    verifiedAt: found.reachedAt,
  };
}

/**
 * The session's evidence: its files that have a SHA-256 (files uploaded before hashes were kept
 * have none and are left out).
 */
async function evidenceOf(tx: Queryable, sessionId: string, appUrl: URL, paid: boolean) {
  const rows = await queryRows<{ path: string; name: string; type: string; sha256: string | null }>(
    tx,
    sql`SELECT m.file_path AS path, m.file_name AS name, m.media_type AS type,
          m.sha256
        FROM session_media m WHERE m.session_id = ${sessionId}
        ORDER BY m.created_at, m.id`,
  );
  const files = rows.flatMap((r) =>
    r.sha256 && /^[0-9a-f]{64}$/.test(r.sha256)
      ? [
          {
            url: new URL(fileUrl(r.path), appUrl).href,
            name: r.name,
            mediaType: r.type,
            sha256: r.sha256,
          },
        ]
      : [],
  );
  return [...(await agreementEvidenceOf(tx, sessionId, appUrl, paid)), ...files];
}

/**
 * A gig booked through GigLedger points at the booking's signed agreement (decision 047): its hash
 * says which agreed booking it was, and anyone holding the agreement.json can match it. The
 * address is the agreement's page, which only the two parties can open. At Paid & agreed the same
 * agreement is the evidence of payment (decision 056): that the payout was released, never how
 * much (the agreement's hash does not reveal its price to anyone without the file).
 */
async function agreementEvidenceOf(tx: Queryable, sessionId: string, appUrl: URL, paid: boolean) {
  const rows = await queryRows<{ bookingId: string; sha256: string }>(
    tx,
    sql`SELECT a.booking_id AS "bookingId", a.sha256 FROM music_sessions s
        JOIN agreements a ON a.booking_id = s.booking_id AND a.status = 'in_force'
        WHERE s.id = ${sessionId}`,
  );
  return rows.map((r) => ({
    url: new URL(`/bookings/${r.bookingId}/agreement`, appUrl).href,
    mediaType: "application/json",
    sha256: r.sha256,
    ...(paid
      ? { name: PAID_EVIDENCE_NAME, narrative: PAID_EVIDENCE_NARRATIVE }
      : { name: "Signed booking agreement" }),
  }));
}

/**
 * Everything a session's credential would claim now; null when the session is gone. `known` is
 * its level when the caller derived it already (the credential job, for a batch at once).
 */
export async function sessionClaimsOf(
  tx: Queryable,
  sessionId: string,
  appUrl: URL,
  known?: SessionLevel,
): Promise<SessionClaims | null> {
  const [row] = await sessionWithOwner(tx, sessionId, {
    artistSlug: artistProfiles.slug,
    isVerified: musicSessions.isVerified,
    verificationMethod: musicSessions.verificationMethod,
    createdAt: musicSessions.createdAt,
  });
  if (!row) return null;
  const { level, paid, verifiedBy, verifiedAt } = await levelOf(tx, row, known);
  return {
    sessionId: row.id,
    artistProfileId: row.artistProfileId,
    artistSlug: row.artistSlug,
    artistName: row.artistName,
    timeZone: row.timeZone,
    title: row.title,
    sessionType: row.sessionType,
    startTime: row.startTime.toISOString(),
    durationMinutes: row.durationMinutes,
    location: row.location,
    level,
    verifiedBy,
    verifiedAt: verifiedAt?.toISOString() ?? null,
    evidence: await evidenceOf(tx, row.id, appUrl, paid),
  };
}
