import BadgeCheck from "lucide-react/icons/badge-check";
import ShieldAlert from "lucide-react/icons/shield-alert";
import type { ReactNode } from "react";
import { Card } from "~/components/ui/card";
import { Pill } from "~/components/ui/pill";
import { formatLongDate } from "~/lib/date-text";
import { formatPaise } from "~/lib/money-text";
import type { AgreementCheck } from "./agreement-check";
import type { StoredAgreement } from "./agreements.server";

/**
 * What the site may say about an intact, correctly signed agreement's hash: its status, "unknown"
 * when it holds no agreement with that hash, "not_asked" when the file did not hold up (then the
 * hash says nothing, and nothing is looked up).
 */
export type AgreementStanding = StoredAgreement["status"] | "unknown" | "not_asked";

const STANDING_WORDS: Record<
  AgreementStanding,
  { pill: string; tone: "success" | "warning" | "danger" | "neutral"; text: string }
> = {
  in_force: {
    pill: "In force",
    tone: "success",
    text: "GigLedger holds this agreement, and it has been neither replaced nor cancelled.",
  },
  superseded: {
    pill: "Superseded",
    tone: "warning",
    text: "The parties later agreed to a change: a later agreement replaces this one.",
  },
  cancelled: {
    pill: "Cancelled",
    tone: "danger",
    text: "The booking was cancelled after this agreement was made.",
  },
  unknown: {
    pill: "Not known",
    tone: "warning",
    text: "GigLedger holds no agreement with this hash.",
  },
  not_asked: {
    pill: "Not looked up",
    tone: "neutral",
    text: "Only an intact agreement with a signature that holds is looked up.",
  },
};

/** A calendar date as words, or the file's text as it is when it is not one. */
function dateText(date: string) {
  try {
    return formatLongDate(date);
  } catch {
    return date;
  }
}

/** "2026-11-21T09:15:00.000Z" → "2026-11-21 09:15 UTC"; anything else as the file has it. */
function instantText(iso: string) {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?Z$/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="sm:grid sm:grid-cols-[12rem_1fr] sm:gap-4">
      <dt className="text-sm font-medium text-slate-900">{label}</dt>
      <dd className="text-sm text-slate-700 wrap-anywhere">{children}</dd>
    </div>
  );
}

function Headline({ check, ourDid }: { check: AgreementCheck; ourDid: string }) {
  const holds = check.intact && check.signatureValid;
  if (holds && check.keyPublished === true && check.signer === ourDid)
    return (
      <>
        <BadgeCheck aria-hidden className="h-5 w-5 shrink-0 text-emerald-700" /> Intact and signed
        by GigLedger
      </>
    );
  const words =
    check.problem ??
    (check.signer === ourDid
      ? "GigLedger's published keys could not be read, so the key was not checked."
      : "This agreement names another signer, whose keys this site does not check.");
  return (
    <>
      <ShieldAlert aria-hidden className="h-5 w-5 shrink-0 text-red-700" /> {words}
    </>
  );
}

function keyWords(check: AgreementCheck, ourDid: string) {
  if (check.signer !== ourDid)
    return `Not checked: this site reads only GigLedger's own keys (${ourDid}), and the file names another signer.`;
  if (check.keyPublished === true) return "Yes, in GigLedger's did.json.";
  if (check.keyPublished === false) return "No: GigLedger's did.json does not list this key.";
  return "Not checked: GigLedger's did.json could not be read.";
}

/** What checking an uploaded agreement.json found, and what the file itself says. */
export function AgreementCheckResult({
  check,
  ourDid,
  standing,
}: {
  check: AgreementCheck;
  ourDid: string;
  standing: AgreementStanding;
}) {
  const holds =
    check.intact && check.signatureValid && check.keyPublished === true && check.signer === ourDid;
  const { summary } = check;
  const site = STANDING_WORDS[standing];
  return (
    <Card as="section" aria-labelledby="result-title" className="space-y-5">
      <h2 id="result-title" className="flex items-start gap-2 text-lg font-semibold">
        <Headline check={check} ourDid={ourDid} />
      </h2>
      <dl className="space-y-3">
        <Row label={check.intact ? "Hash (SHA-256)" : "Signed hash (SHA-256)"}>
          <code>{check.sha256}</code>
        </Row>
        {check.intact ? null : (
          <Row label="Hash of the agreement in this file">
            <code>{check.computedSha256}</code>
          </Row>
        )}
        <Row label="Signature">
          {check.signatureValid ? "Holds, with the key below." : "Does not hold."}
        </Row>
        <Row label="Signed as">{check.signer}</Row>
        <Row label="Key">
          <code>{check.publicKeyMultibase}</code>
        </Row>
        <Row label="Key published">{keyWords(check, ourDid)}</Row>
        <Row label="On GigLedger">
          <span className="flex flex-wrap items-center gap-2">
            <Pill tone={site.tone} size="sm">
              {site.pill}
            </Pill>
            <span>{site.text}</span>
          </span>
        </Row>
      </dl>
      <section aria-labelledby="agreement-summary-title" className="space-y-3">
        <h3 id="agreement-summary-title" className="font-semibold">
          What the file says
        </h3>
        <p className="text-sm text-slate-600">
          {holds
            ? "As written in the file you uploaded; GigLedger's signature covers all of it."
            : "As written in the file you uploaded. The check above failed, so do not rely on it."}
        </p>
        <dl className="space-y-3">
          <Row label="Artist">{summary.artistName ?? "Not stated"}</Row>
          <Row label="Client">{summary.clientName ?? "Not stated"}</Row>
          <Row label="Event date">
            {summary.eventDate ? dateText(summary.eventDate) : "Not stated"}
          </Row>
          <Row label="Total">
            {summary.totalPaise === null ? "Not stated" : formatPaise(summary.totalPaise)}
          </Row>
          <Row label="Cancellation policy">{summary.policyName ?? "Not stated"}</Row>
          <Row label="Agreed (frozen) at">
            {summary.frozenAt ? instantText(summary.frozenAt) : "Not stated"}
          </Row>
          <Row label="Replaces">
            {summary.supersedes ? (
              <>
                the agreement with hash <code>{summary.supersedes}</code>
              </>
            ) : (
              "No earlier agreement"
            )}
          </Row>
        </dl>
      </section>
    </Card>
  );
}
