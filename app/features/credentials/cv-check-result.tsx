import BadgeCheck from "lucide-react/icons/badge-check";
import ShieldAlert from "lucide-react/icons/shield-alert";
import { Card } from "~/components/ui/card";
import { Pill } from "~/components/ui/pill";
import type { CredentialCheck, CvCheck } from "./verify.server";

const TYPE_WORDS: Record<string, string> = {
  "ext:Performance": "Performance",
  "ext:Recording": "Recording",
  "ext:JamSession": "Jam session",
  "ext:Practice": "Practice",
};

function revocationPill(revoked: boolean | null) {
  if (revoked === true)
    return (
      <Pill tone="danger" size="sm">
        Revoked
      </Pill>
    );
  if (revoked === false)
    return (
      <Pill tone="success" size="sm">
        Not revoked
      </Pill>
    );
  return (
    <Pill tone="warning" size="sm">
      Revocation not checked
    </Pill>
  );
}

function CredentialRow({ check }: { check: CredentialCheck }) {
  const kind = check.achievementType
    ? (TYPE_WORDS[check.achievementType] ?? check.achievementType)
    : null;
  return (
    <li className="py-4 first:pt-0 last:pb-0">
      <p className="font-medium wrap-anywhere">{check.name}</p>
      <p className="mt-1 flex flex-wrap gap-2">
        {check.authentic ? (
          <Pill tone="success" size="sm">
            Authentic
          </Pill>
        ) : (
          <Pill tone="danger" size="sm">
            Not authentic
          </Pill>
        )}
        {check.authentic ? revocationPill(check.revoked) : null}
        {check.level ? (
          <Pill tone="brand" size="sm">
            {check.level}
          </Pill>
        ) : null}
        {kind ? <Pill size="sm">{kind}</Pill> : null}
      </p>
      {check.authentic && check.narrative ? (
        <p className="mt-2 text-sm text-slate-700 wrap-anywhere">
          <span className="font-medium">What it proves: </span>
          {check.narrative}
          {check.date ? ` (session of ${check.date.slice(0, 10)})` : ""}
        </p>
      ) : null}
      {check.authentic && check.subject ? (
        <p className="mt-1 text-sm text-slate-600 wrap-anywhere">Artist: {check.subject}</p>
      ) : null}
      {!check.authentic ? (
        <p className="mt-2 text-sm text-red-800 wrap-anywhere">
          Its signature does not hold, so nothing it says can be trusted.
          {check.problem ? ` (${check.problem})` : ""}
        </p>
      ) : null}
    </li>
  );
}

/** What checking an uploaded CV found, credential by credential. */
export function CvCheckResult({ result }: { result: CvCheck }) {
  const revoked = result.credentials.filter((c) => c.authentic && c.revoked === true).length;
  return (
    <Card as="section" aria-labelledby="result-title" className="space-y-4">
      <h2 id="result-title" className="flex items-center gap-2 text-lg font-semibold">
        {result.allAuthentic ? (
          <>
            <BadgeCheck aria-hidden className="h-5 w-5 text-emerald-700" /> Every signature holds
          </>
        ) : (
          <>
            <ShieldAlert aria-hidden className="h-5 w-5 text-red-700" /> This CV has been changed or
            was not signed by GigLedger
          </>
        )}
      </h2>
      <p className="text-slate-700">
        {result.credentials.length === 1
          ? "1 credential"
          : `${result.credentials.length} credentials`}
        {result.kind === "presentation"
          ? result.presentationAuthentic
            ? ", in a CV whose own signature holds."
            : ", in a CV whose own signature does not hold."
          : "."}
        {revoked > 0 ? ` ${revoked} of them ${revoked === 1 ? "has" : "have"} been revoked.` : ""}
      </p>
      {result.credentials.length > 0 ? (
        <ul className="divide-y divide-slate-100">
          {result.credentials.map((c) => (
            <CredentialRow key={c.position} check={c} />
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
