import { cancellationText, responseRateText, responseTimeText, type TrustFigures } from "./trust";

/**
 * The artist's response rate, typical response time and cancellations in words, each shown only
 * once enough bookings stand behind it; nothing at all for an artist too new to have figures.
 * The formulas are explained on /discover.
 */
export function TrustLines({ figures, className }: { figures?: TrustFigures; className?: string }) {
  if (!figures) return null;
  const lines = [
    responseRateText(figures.response),
    responseTimeText(figures.response),
    cancellationText(figures.cancellations),
  ].filter((line): line is string => line !== null);
  if (lines.length === 0) return null;
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
