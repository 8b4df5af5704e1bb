import Users from "lucide-react/icons/users";
import type { CollaborationInsight } from "./instagram.server";

/**
 * "Artists you follow worked with this artist": shown only to a signed-in viewer with an active
 * Instagram connection, when at least one artist they follow has played with this one.
 */
export function CollaborationIndicator({
  insight,
  artistName,
  compact = false,
}: {
  insight: CollaborationInsight;
  artistName?: string;
  compact?: boolean;
}) {
  if (!insight.shouldShowIndicator) return null;
  const n = insight.collaborationCount;
  const who = n === 1 ? "1 artist you follow" : `${n} artists you follow`;
  const text = compact
    ? `${n} mutual ${n === 1 ? "collaboration" : "collaborations"}`
    : `${who} on Instagram ${n === 1 ? "has" : "have"} collaborated with ${artistName ?? "this artist"}`;
  return (
    <p
      data-testid="collaboration-indicator"
      className="inline-flex items-center gap-1.5 rounded-full bg-fuchsia-50 px-3 py-1 text-sm text-fuchsia-900"
    >
      <Users aria-hidden className="h-4 w-4" />
      {text}
    </p>
  );
}
