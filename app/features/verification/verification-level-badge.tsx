import BadgeCheck from "lucide-react/icons/badge-check";
import CircleDashed from "lucide-react/icons/circle-dashed";
import Handshake from "lucide-react/icons/handshake";
import { Link } from "react-router";
import { Pill, type PillTone } from "~/components/ui/pill";
import { formatDay } from "~/lib/dates";
import { LEVEL_INFO, type SessionLevel, verifiedByText } from "./verification-levels";

const TONES: Record<SessionLevel["level"], PillTone> = {
  self_logged: "neutral",
  peer_confirmed: "brand",
  lineup_verified: "success",
  client_verified: "success",
  paid_and_agreed: "success",
};

const ICONS: Partial<Record<SessionLevel["level"], typeof BadgeCheck>> = {
  self_logged: CircleDashed,
  paid_and_agreed: Handshake,
};

/**
 * A session's rung on the verification ladder: its name, the short explanation, who verified it
 * and when (days in the artist's zone), and a link to /verification. `compact` is for cards and
 * lists; the session page shows it whole. `ownerName` is given on a collaborator's copy of
 * someone else's session: the line then says whose session it is and who confirmed it.
 */
export function VerificationLevelBadge({
  level,
  timeZone,
  compact = false,
  ownerName,
}: {
  level: SessionLevel;
  timeZone: string;
  compact?: boolean;
  ownerName?: string;
}) {
  const info = LEVEL_INFO[level.level];
  const who = verifiedByText(
    level,
    (at) => formatDay(at, timeZone),
    ownerName === undefined ? undefined : { ownerName },
  );
  const Icon = ICONS[level.level] ?? BadgeCheck;
  return (
    <div className={compact ? "space-y-0.5 text-xs" : "space-y-1 text-sm"} data-level={level.level}>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <Pill
          tone={TONES[level.level]}
          size={compact ? "xs" : "sm"}
          icon={Icon}
          className="font-medium"
        >
          {info.label}
        </Pill>
        <span className="text-slate-600">{info.explanation}</span>
      </p>
      {who ? <p className="wrap-anywhere text-slate-600">{who}</p> : null}
      <p>
        <Link
          to="/verification"
          className={`relative z-10 text-brand-700 underline ${compact ? "" : "text-sm"}`}
        >
          What the levels mean
        </Link>
      </p>
    </div>
  );
}
