import { createHash } from "node:crypto";
import { formatLongDate, isoInZone, wallClockIn } from "~/lib/dates";
import type { SESSION_TYPES } from "~db/enums";
import {
  ACHIEVEMENT_TYPES,
  CONTEXT_OB_3,
  CONTEXT_VC_2,
  VERIFICATION_LEVELS,
  type VerificationLevel,
} from "./credentials.constants";
import { statusListUrl, statusPlaceOf } from "./status-list";

/** What a session's credential says: everything here is signed, and nothing else. */
export type SessionClaims = {
  sessionId: string;
  artistProfileId: string;
  artistSlug: string;
  artistName: string;
  timeZone: string;
  title: string;
  sessionType: (typeof SESSION_TYPES)[number];
  startTime: string;
  durationMinutes: number;
  location: string | null;
  level: VerificationLevel;
  /** Artists' names, or "the client" for a booking. */
  verifiedBy: string[];
  verifiedAt: string | null;
  /**
   * Files with a SHA-256 (hex); files without one are not evidence yet. `narrative` says what a
   * piece of evidence shows beyond its hash ("Payment: released."), never an amount.
   */
  evidence: { url: string; name: string; mediaType: string; sha256: string; narrative?: string }[];
};

/** A credential is signed again only when what it claims changes. */
export function claimsDigest(claims: SessionClaims): string {
  return createHash("sha256").update(JSON.stringify(claims)).digest("hex");
}

const TYPE_WORDS: Record<SessionClaims["sessionType"], string> = {
  performance: "performance",
  recording: "recording session",
  jam: "jam session",
  practice: "practice session",
};

function joinNames(names: string[]) {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The level in plain words, with who verified it and when. */
function levelNarrative(claims: SessionClaims): string {
  const when = claims.verifiedAt
    ? ` on ${formatLongDate(wallClockIn(claims.verifiedAt, claims.timeZone).date)}`
    : "";
  switch (claims.level) {
    case "Paid & agreed":
      return `Paid & agreed: agreed and paid through GigLedger, and the artist's payout released with no problem reported${when}.`;
    case "Client-verified":
      return `Client-verified: booked and completed through GigLedger, and rated by the client${when}.`;
    case "Lineup-verified":
      return `Lineup-verified: every collaborator who joined (${joinNames(claims.verifiedBy)}) confirmed${when} that it took place as logged.`;
    case "Peer-confirmed":
      return `Peer-confirmed: ${joinNames(claims.verifiedBy)}, who ${claims.verifiedBy.length === 1 ? "was" : "were"} there, confirmed it${when}.`;
    default:
      return "Self-logged: only the artist says so.";
  }
}

/** SHA-256 as a multibase multihash ("u" + base64url of 0x12 0x20 + digest), as VC 2.0 writes it. */
function digestMultibaseOf(sha256Hex: string) {
  return `u${Buffer.concat([Buffer.from([0x12, 0x20]), Buffer.from(sha256Hex, "hex")]).toString("base64url")}`;
}

/** The unsigned Open Badges 3.0 credential for a session (docs/decisions/018). */
export function credentialOf(
  claims: SessionClaims,
  issue: { appUrl: URL; did: string; credentialId: string; statusIndex: number },
): Record<string, unknown> {
  const { appUrl, did } = issue;
  const sessionUrl = new URL(`/sessions/${claims.sessionId}`, appUrl).href;
  const profileUrl = new URL(`/artist/${claims.artistSlug}`, appUrl).href;
  const end = new Date(Date.parse(claims.startTime) + claims.durationMinutes * 60_000);
  const { listNumber, offset } = statusPlaceOf(issue.statusIndex);
  const listUrl = statusListUrl(appUrl, listNumber);
  const what = TYPE_WORDS[claims.sessionType];
  const where = claims.location ? ` in ${claims.location}` : "";
  return {
    "@context": [CONTEXT_VC_2, CONTEXT_OB_3],
    id: `urn:uuid:${issue.credentialId}`,
    type: ["VerifiableCredential", "OpenBadgeCredential"],
    name: claims.title,
    description: `A ${what} by ${claims.artistName}${where}. ${levelNarrative(claims)}`,
    issuer: { id: did, type: ["Profile"], name: "GigLedger", url: appUrl.origin },
    validFrom: isoInZone(claims.startTime, claims.timeZone),
    credentialSubject: {
      id: profileUrl,
      type: ["AchievementSubject"],
      activityStartDate: isoInZone(claims.startTime, claims.timeZone),
      activityEndDate: isoInZone(end, claims.timeZone),
      achievement: {
        id: sessionUrl,
        type: ["Achievement"],
        achievementType: ACHIEVEMENT_TYPES[claims.sessionType],
        name: claims.title,
        description: `A ${what} by ${claims.artistName}${where}, logged on GigLedger.`,
        criteria: { narrative: levelNarrative(claims) },
        resultDescription: [
          {
            id: `${sessionUrl}#verification-level`,
            type: ["ResultDescription"],
            name: "Verification level",
            resultType: "ext:VerificationLevel",
            allowedValue: [...VERIFICATION_LEVELS],
          },
        ],
      },
      result: [
        {
          type: ["Result"],
          resultDescription: `${sessionUrl}#verification-level`,
          value: claims.level,
        },
      ],
    },
    ...(claims.evidence.length > 0
      ? {
          evidence: claims.evidence.map((file) => ({
            id: file.url,
            type: ["Evidence"],
            name: file.name,
            genre: file.mediaType,
            description: `SHA-256 ${file.sha256}`,
            ...(file.narrative ? { narrative: file.narrative } : {}),
            digestMultibase: digestMultibaseOf(file.sha256),
          })),
        }
      : {}),
    credentialStatus: {
      id: `${listUrl}#${offset}`,
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListIndex: String(offset),
      statusListCredential: listUrl,
    },
  };
}

/** The level a signed credential states (its result), or null when it states none. */
export function levelStatedBy(credential: unknown): string | null {
  const subject = (credential as { credentialSubject?: { result?: { value?: unknown }[] } })
    ?.credentialSubject;
  const value = Array.isArray(subject?.result) ? subject.result[0]?.value : undefined;
  return typeof value === "string" ? value : null;
}
