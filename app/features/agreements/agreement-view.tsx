import { policySummary } from "~/features/terms/terms-text";
import { formatLongDate, formatTime, formatWallClock } from "~/lib/dates";
import { formatPaise } from "~/lib/money-text";
import type { SignedAgreement } from "./agreement-document";
import { paymentRouteText } from "./payment-route-text";

// The agreement as a page (drawn on the server only: it needs no JavaScript, and prints well).

const STATUS_WORDS = {
  in_force: "In force",
  superseded: "Replaced by a later agreement",
  cancelled: "Ended: the booking was cancelled",
} as const;

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-2 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="min-w-0 wrap-anywhere">{children}</dd>
    </div>
  );
}

export function AgreementView({
  signed,
  status,
  bookingId,
}: {
  signed: SignedAgreement;
  status: keyof typeof STATUS_WORDS;
  bookingId: string;
}) {
  const { agreement, signature } = signed;
  const { offer } = agreement;
  const { event, price, payments, cancellation } = offer;
  const hours = event.durationMinutes / 60;
  const at = (iso: string) => formatWallClock(iso, event.timeZone, { withZone: true });
  const names = { artist: offer.artist.name, client: offer.client.name };
  return (
    <article aria-labelledby="agreement-title" className="space-y-6 print:space-y-4">
      <header className="space-y-2">
        <p className="text-sm font-medium text-slate-600">GigLedger · Booking agreement</p>
        <h1 id="agreement-title" className="text-2xl font-bold wrap-anywhere">
          {offer.artist.name} for {offer.client.name}, {formatLongDate(event.date)}
        </h1>
        <p className="text-sm">
          <span className="rounded bg-slate-100 px-2 py-0.5 font-medium">
            {STATUS_WORDS[status]}
          </span>{" "}
          · Agreed {at(agreement.frozenAt)} · version {offer.version}
        </p>
        <p className="text-sm">
          Agreement hash (SHA-256):{" "}
          <code className="break-all font-mono text-xs" data-testid="agreement-hash">
            {signature.sha256}
          </code>
        </p>
        {agreement.supersedes ? (
          <p className="text-sm text-slate-700">
            This agreement replaces the one with hash{" "}
            <code className="break-all font-mono text-xs">{agreement.supersedes}</code>.
          </p>
        ) : null}
      </header>

      <section aria-labelledby="parties-title">
        <h2 id="parties-title" className="text-lg font-semibold">
          The parties
        </h2>
        <dl className="divide-y divide-slate-100">
          <Row label="Artist">{offer.artist.name}</Row>
          <Row label="Client">{offer.client.name}</Row>
        </dl>
      </section>

      <section aria-labelledby="performance-title">
        <h2 id="performance-title" className="text-lg font-semibold">
          The performance
        </h2>
        <dl className="divide-y divide-slate-100">
          <Row label="Event">
            {event.eventType}
            {event.eventName ? `: ${event.eventName}` : ""}
          </Row>
          <Row label="Date">{formatLongDate(event.date)}</Row>
          <Row label="Start">
            {event.startTime ? formatTime(event.startTime) : "Start time to be agreed"} (
            {event.timeZone})
          </Row>
          <Row label="Length">
            {hours} {hours === 1 ? "hour" : "hours"}
          </Row>
          <Row label="Venue">{event.venue}</Row>
        </dl>
      </section>

      <section aria-labelledby="price-title">
        <h2 id="price-title" className="text-lg font-semibold">
          Price
        </h2>
        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">The agreed price, line by line</caption>
          <tbody>
            {price.lines.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: an agreement's lines never change
              <tr key={i} className="border-b border-slate-100">
                <th scope="row" className="py-2 pr-3 font-normal wrap-anywhere">
                  {line.label}
                </th>
                <td className="py-2 text-right tabular-nums">{formatPaise(line.amountPaise)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" className="py-2 pr-3">
                Total
              </th>
              <td className="py-2 text-right font-semibold tabular-nums">
                {formatPaise(price.totalPaise)}
              </td>
            </tr>
          </tbody>
        </table>
        <dl className="mt-2 divide-y divide-slate-100">
          <Row label="Deposit">
            {payments.depositBps === 0
              ? "No deposit"
              : `${formatPaise(payments.depositPaise)} (${payments.depositBps / 100}%) when the booking is agreed`}
          </Row>
          <Row label="Balance">
            {formatPaise(payments.balancePaise)} due{" "}
            {payments.balanceDueDays === 0
              ? "on the day of the event"
              : `${payments.balanceDueDays} days before, on ${formatLongDate(payments.balanceDueDate)}`}
          </Row>
          <Row label="Payment">{paymentRouteText(payments)}</Row>
        </dl>
        {offer.included.length > 0 ? (
          <>
            <h3 className="mt-3 font-medium">Included</h3>
            <ul className="list-disc pl-5 text-sm">
              {offer.included.map((item) => (
                <li key={item} className="wrap-anywhere">
                  {item}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {offer.notes ? (
          <p className="mt-3 whitespace-pre-wrap text-sm wrap-anywhere">{offer.notes}</p>
        ) : null}
      </section>

      <section aria-labelledby="cancellation-title">
        <h2 id="cancellation-title" className="text-lg font-semibold">
          Cancellation: {cancellation.policyName} policy (version {cancellation.policyVersion})
        </h2>
        <p className="text-sm text-slate-700">
          What the client pays if they cancel, by the notice given before the event starts:
        </p>
        <ul className="mt-1 list-disc pl-5 text-sm">
          {policySummary(cancellation).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="accepted-title">
        <h2 id="accepted-title" className="text-lg font-semibold">
          Accepted
        </h2>
        <ul className="space-y-2 text-sm">
          {agreement.acceptances.map((a) => (
            <li key={a.party}>
              {names[a.party]} ({a.party}) accepted on {at(a.acceptedAt)}, shown the terms with hash{" "}
              <code className="break-all font-mono text-xs">{a.sha256Shown}</code>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="signature-title" className="text-sm">
        <h2 id="signature-title" className="text-lg font-semibold">
          Signature
        </h2>
        <p className="wrap-anywhere">
          Signed by GigLedger ({signature.signer}) with the Ed25519 key{" "}
          <code className="break-all font-mono text-xs">{signature.publicKeyMultibase}</code>, over
          the SHA-256 of the agreement's canonical JSON (RFC 8785). Booking {bookingId}.
        </p>
        <p className="mt-1">
          Anyone can check it: upload agreement.json at{" "}
          <a href="/verify" className="text-brand-700 underline">
            /verify
          </a>
          , or run <code className="font-mono text-xs">npm run verify-cv -- agreement.json</code> in
          GigLedger's source.
        </p>
      </section>
    </article>
  );
}
