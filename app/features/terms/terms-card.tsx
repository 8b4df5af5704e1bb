// An artist's published booking terms in plain words: the profile's "Booking terms" card (drawn on
// the server only, decision 022) and the lines the request form shows above its button.
import { Card } from "~/components/ui/card";
import { policyTerms } from "./policies";
import type { PublishedTerms } from "./published-terms";
import { balanceDueText, depositText, policySummary } from "./terms-text";

/** The policy's name as a line: "Cancellation policy: Moderate". */
function policyLine(terms: PublishedTerms): string {
  return `Cancellation policy: ${policyTerms(terms.policy).policyName}`;
}

/**
 * The terms as the request form shows them, one line each: the deposit, the balance's due day,
 * the policy's name, its table, the cooling-off and the artist cancelling.
 */
export function publishedTermsLines(terms: PublishedTerms): string[] {
  return [
    depositText(terms.depositBps),
    balanceDueText(terms.balanceDueDays),
    policyLine(terms),
    ...policySummary(policyTerms(terms.policy)),
  ];
}

/** The profile's card: payment terms, the policy with its table under a disclosure. */
export function TermsCard({ terms }: { terms: PublishedTerms }) {
  const summary = policySummary(policyTerms(terms.policy));
  // The table's bands, then the cooling-off and the artist's lines, the same for every policy.
  const bands = summary.slice(0, -2);
  const always = summary.slice(-2);
  return (
    <Card as="section" aria-labelledby="terms-title">
      <h2 id="terms-title" className="text-lg font-semibold">
        Booking terms
      </h2>
      <div className="mt-3 grid gap-x-8 gap-y-3 text-slate-700 md:grid-cols-2">
        <ul className="space-y-1">
          <li>{depositText(terms.depositBps)}</li>
          <li>{balanceDueText(terms.balanceDueDays)}</li>
          <li>
            <details>
              <summary className="cursor-pointer">
                {policyLine(terms)}{" "}
                <span className="text-sm text-brand-700 underline">
                  (what a cancellation costs)
                </span>
              </summary>
              <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm">
                {bands.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </details>
          </li>
        </ul>
        <ul className="space-y-1 text-sm text-slate-600">
          {always.map((line) => (
            <li key={line}>{line}</li>
          ))}
          <li>
            A booking request is an offer on these terms. The artist may answer with a quote on
            other terms.
          </li>
        </ul>
      </div>
    </Card>
  );
}
