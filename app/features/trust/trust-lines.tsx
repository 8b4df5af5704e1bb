import {
  cancellationText,
  newcomerText,
  responseRateText,
  responseTimeText,
  type TrustFigures,
} from "./trust";

/**
 * The artist's response rate, typical response time and cancellations in words, each shown only
 * once enough bookings stand behind it; for an artist too new to have figures, what is known
 * ("New on GigLedger · 2 verified sessions"). The formulas are explained on /discover.
 */
export function TrustLines({
  figures,
  verifiedSessions,
  className,
}: {
  figures?: TrustFigures;
  /** The artist's verified sessions, for the newcomer's line. */
  verifiedSessions: number;
  className?: string;
}) {
  const figureLines = figures
    ? [
        responseRateText(figures.response),
        responseTimeText(figures.response),
        cancellationText(figures.cancellations),
      ].filter((line): line is string => line !== null)
    : [];
  const lines = figureLines.length > 0 ? figureLines : [newcomerText(verifiedSessions)];
  return (
    <ul className={className ?? "mt-2 space-y-0.5 text-sm text-slate-700"} aria-label="Reliability">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
      <li>
        <a href="/discover#trust-figures" className="text-xs text-brand-700 underline">
          How these are counted
        </a>
      </li>
    </ul>
  );
}
