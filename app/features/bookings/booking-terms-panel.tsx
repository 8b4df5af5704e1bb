import { Form, Link } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { TextareaField } from "~/components/ui/textarea-field";
import type { OfferDocument } from "~/features/agreements/agreement-document";
import { paymentRouteText } from "~/features/agreements/payment-route-text";
import { balanceDueText, depositText, policySummary } from "~/features/terms/terms-text";
import { formatLongDate, formatTime, formatWallClock } from "~/lib/dates";
import { formatPaise } from "~/lib/money-text";
import type { AgreementEntry, BookingTerms, OfferEntry } from "./booking-terms-view.server";
import type { CancelOutcome } from "./cancel-now";
import { offerChanges } from "./offer-changes";
import { QuoteComposer } from "./quote-composer";
import { CHANGE_MESSAGE_MAX } from "./quotes.schema";

type Props = {
  bookingId: string;
  terms: BookingTerms;
  isArtist: boolean;
  artistName: string;
  clientName: string;
  timeZone: string;
  /** The artist may send or revise a quote (pending or agreed, before the day). */
  canQuote: boolean;
  /** The client may answer the open quote. */
  canAnswer: boolean;
  values?: Record<string, string>;
  errors?: Record<string, string>;
  busy: boolean;
};

const STATUS_WORDS: Record<OfferEntry["status"], string> = {
  open: "Open",
  superseded: "Replaced by a later version",
  declined: "Declined",
  withdrawn: "Withdrawn",
  accepted: "Accepted",
};

/**
 * The booking's terms on its page (docs/product.md, "Quotes and agreements"): the agreement in
 * force, "If you cancel now", the open quote with the client's answers, the artist's composer, and
 * every version as a timeline with what changed.
 */
export function BookingTermsPanel(props: Props) {
  const { terms, isArtist, canQuote, canAnswer } = props;
  const inForce = terms.agreements.find((a) => a.status === "in_force");
  const composerTitle = inForce
    ? "Propose a Change"
    : terms.open?.kind === "quote"
      ? "Revise Quote"
      : "Send Quote";
  return (
    <Card as="section" aria-labelledby="terms-title">
      <h2 id="terms-title" className="text-lg font-semibold">
        Terms and agreement
      </h2>
      {terms.offers.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          This booking was requested before GigLedger kept agreed terms: it has no signed agreement.
        </p>
      ) : null}
      {terms.agreements.length > 0 ? (
        <AgreementSummary bookingId={props.bookingId} agreements={terms.agreements} />
      ) : null}
      {terms.cancelNow ? (
        <CancelNow outcome={terms.cancelNow} isArtist={isArtist} artistName={props.artistName} />
      ) : null}
      {terms.open?.kind === "quote" ? (
        <OpenQuote
          offer={terms.open}
          isArtist={isArtist}
          canAnswer={canAnswer}
          artistName={props.artistName}
          values={props.values}
          errors={props.errors}
          busy={props.busy}
        />
      ) : null}
      {canQuote && terms.draft ? (
        <QuoteComposer
          // A new version closes the composer and starts it again from that version.
          key={terms.offers.length}
          draft={terms.draft}
          title={composerTitle}
          values={props.values}
          errors={props.errors}
          busy={props.busy}
        />
      ) : null}
      {terms.offers.length > 0 ? (
        <Timeline
          offers={terms.offers}
          timeZone={props.timeZone}
          artistName={props.artistName}
          clientName={props.clientName}
        />
      ) : null}
    </Card>
  );
}

function AgreementSummary({
  bookingId,
  agreements,
}: {
  bookingId: string;
  agreements: AgreementEntry[];
}) {
  const current = agreements[0];
  if (!current) return null;
  const words =
    current.status === "in_force"
      ? "Agreed and signed"
      : current.status === "cancelled"
        ? "Agreement ended: the booking was cancelled"
        : "Agreement replaced";
  return (
    <div className="mt-4 rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-sm">
      <p className="font-medium text-emerald-900">
        {words} · version {current.version} · {formatPaise(current.totalPaise)} ·{" "}
        {current.policyName} policy
      </p>
      <p className="mt-1 break-all font-mono text-xs text-slate-700">SHA-256 {current.sha256}</p>
      <p className="mt-3 flex flex-wrap gap-2">
        <Link to={`/bookings/${bookingId}/agreement`} className={buttonClasses("primary", "sm")}>
          Read the agreement
        </Link>
        <a
          href={`/bookings/${bookingId}/agreement.pdf`}
          download
          className={buttonClasses("outline", "sm")}
        >
          PDF
        </a>
        <a
          href={`/bookings/${bookingId}/agreement.json`}
          download
          className={buttonClasses("outline", "sm")}
        >
          agreement.json
        </a>
      </p>
      {agreements.length > 1 ? (
        <p className="mt-2 text-xs text-slate-600">
          Earlier agreements (replaced):{" "}
          {agreements
            .slice(1)
            .map((a) => a.sha256.slice(0, 12))
            .join(", ")}
        </p>
      ) : null}
    </div>
  );
}

/** "If you cancel now", from the same function the cancellation applies. */
function CancelNow({
  outcome,
  isArtist,
  artistName,
}: {
  outcome: CancelOutcome;
  isArtist: boolean;
  artistName: string;
}) {
  const paid = formatPaise(outcome.paidPaise);
  const scheduled = outcome.paidPaise === outcome.totalPaise ? "everything due" : "the deposit";
  return (
    <div className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-950">
      <p className="font-medium">If you cancel now</p>
      {isArtist ? (
        <p className="mt-1">
          The client gets back everything paid ({paid} if {scheduled} has been paid). Cancelling
          counts in the cancellations shown on your profile.
        </p>
      ) : outcome.coolingOff ? (
        <p className="mt-1">
          You are within the 24-hour cooling-off: you get back everything paid ({paid}).
        </p>
      ) : (
        <p className="mt-1">
          Under the {outcome.policyName} policy, with {outcome.noticeHours} hours' notice, the
          cancellation charge is {formatPaise(outcome.chargePaise)}. If {scheduled} has been paid (
          {paid}): you get back {formatPaise(outcome.refundPaise)}; {artistName} keeps{" "}
          {formatPaise(outcome.keptPaise)}.
        </p>
      )}
    </div>
  );
}

function OpenQuote({
  offer,
  isArtist,
  canAnswer,
  artistName,
  values,
  errors = {},
  busy,
}: {
  offer: OfferEntry;
  isArtist: boolean;
  canAnswer: boolean;
  artistName: string;
  values?: Record<string, string>;
  errors?: Record<string, string>;
  busy: boolean;
}) {
  const asking = values?.intent === "askChanges";
  return (
    <div className="mt-4 rounded-lg border border-brand-100 bg-brand-50 p-4">
      <h3 className="font-semibold">
        {isArtist ? "Your quote" : `${artistName}'s quote`} · version {offer.version}
      </h3>
      <OfferTerms offer={offer.document} />
      {offer.expired ? (
        <p className="mt-2 text-sm font-medium text-red-800">
          This quote has expired.{" "}
          {isArtist ? "Send a revised quote." : "Ask the artist for a new one."}
        </p>
      ) : offer.document.expiresAt ? (
        <p className="mt-2 text-sm text-slate-700">
          Open until{" "}
          {formatWallClock(offer.document.expiresAt, offer.document.event.timeZone, {
            withZone: true,
          })}
        </p>
      ) : null}
      <p className="mt-2 break-all font-mono text-xs text-slate-600">SHA-256 {offer.sha256}</p>
      {canAnswer && !offer.expired ? (
        <div className="mt-4 flex flex-wrap items-start gap-3">
          <Form method="post">
            <input type="hidden" name="intent" value="acceptQuote" />
            <input type="hidden" name="sha256" value={offer.sha256} />
            <Button type="submit" disabled={busy}>
              Accept Quote
            </Button>
          </Form>
          <details className="min-w-0 flex-1 basis-60" open={asking}>
            <summary className={buttonClasses("outline", "md", "cursor-pointer list-none")}>
              Ask for Changes
            </summary>
            <Form method="post" className="mt-3 space-y-3">
              <input type="hidden" name="intent" value="askChanges" />
              <TextareaField
                label="What would you like changed?"
                name="message"
                rows={3}
                required
                maxLength={CHANGE_MESSAGE_MAX}
                defaultValue={asking ? values?.message : undefined}
                error={asking ? errors.message : undefined}
              />
              <Field
                label="Total you have in mind (optional, ₹)"
                name="wishedTotal"
                inputMode="decimal"
                defaultValue={asking ? values?.wishedTotal : undefined}
                error={asking ? errors.wishedTotal : undefined}
              />
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                <SelectField
                  label="Deposit you would like (optional)"
                  name="wishedDepositPercent"
                  defaultValue={asking ? values?.wishedDepositPercent : ""}
                >
                  <option value="">No preference</option>
                  <option value="0">No deposit</option>
                  {[10, 20, 25, 30, 40, 50].map((p) => (
                    <option key={p} value={p}>
                      {p}%
                    </option>
                  ))}
                </SelectField>
                <SelectField
                  label="Policy you would like (optional)"
                  name="wishedPolicy"
                  defaultValue={asking ? values?.wishedPolicy : ""}
                >
                  <option value="">No preference</option>
                  <option value="flexible">Flexible</option>
                  <option value="moderate">Moderate</option>
                  <option value="strict">Strict</option>
                </SelectField>
              </div>
              <Button type="submit" variant="outline" disabled={busy}>
                Send to {artistName}
              </Button>
            </Form>
          </details>
          <Form
            method="post"
            onSubmit={(e) => {
              if (!window.confirm("Decline this quote?")) e.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="declineQuote" />
            <Button type="submit" variant="destructive" disabled={busy}>
              Decline Quote
            </Button>
          </Form>
        </div>
      ) : null}
    </div>
  );
}

/** One version's terms: the lines, the money and the policy in plain words. */
function OfferTerms({ offer }: { offer: OfferDocument }) {
  const { event, price, payments } = offer;
  return (
    <div className="mt-2 space-y-2 text-sm">
      <p className="text-slate-700">
        {formatLongDate(event.date)}
        {event.startTime ? ` at ${formatTime(event.startTime)}` : ""} · {event.durationMinutes / 60}{" "}
        {event.durationMinutes === 60 ? "hour" : "hours"}
      </p>
      <table className="w-full text-left">
        <caption className="sr-only">Price</caption>
        <tbody>
          {price.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a version's lines never change
            <tr key={i} className="border-b border-slate-200">
              <th scope="row" className="py-1 pr-2 font-normal wrap-anywhere">
                {line.label}
              </th>
              <td className="py-1 text-right tabular-nums">{formatPaise(line.amountPaise)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row" className="py-1 pr-2">
              Total
            </th>
            <td className="py-1 text-right font-semibold tabular-nums">
              {formatPaise(price.totalPaise)}
            </td>
          </tr>
        </tbody>
      </table>
      <p>
        {depositText(payments.depositBps)}
        {payments.depositBps > 0 ? ` (${formatPaise(payments.depositPaise)})` : ""}.{" "}
        {balanceDueText(payments.balanceDueDays)}
        {payments.balancePaise > 0
          ? ` (${formatPaise(payments.balancePaise)}, ${formatLongDate(payments.balanceDueDate)})`
          : ""}
        . {paymentRouteText(payments)}
      </p>
      {offer.included.length > 0 ? (
        <div>
          <p className="font-medium">Included</p>
          <ul className="list-disc pl-5">
            {offer.included.map((item) => (
              <li key={item} className="wrap-anywhere">
                {item}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {offer.notes ? <p className="whitespace-pre-wrap wrap-anywhere">{offer.notes}</p> : null}
      <details>
        <summary className="cursor-pointer font-medium">
          Cancellation: {offer.cancellation.policyName} policy
        </summary>
        <ul className="mt-1 list-disc pl-5 text-slate-700">
          {policySummary(offer.cancellation).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </details>
    </div>
  );
}

function Timeline({
  offers,
  timeZone,
  artistName,
  clientName,
}: {
  offers: OfferEntry[];
  timeZone: string;
  artistName: string;
  clientName: string;
}) {
  const who = (party: "artist" | "client") => (party === "artist" ? artistName : clientName);
  return (
    <section aria-labelledby="versions-title" className="mt-6 border-t border-slate-100 pt-4">
      <h3 id="versions-title" className="font-semibold">
        Versions
      </h3>
      <ol className="mt-2 space-y-3">
        {[...offers].reverse().map((offer) => {
          const previous = offers.find((o) => o.version === offer.version - 1);
          const changes = previous ? offerChanges(previous.document, offer.document) : [];
          return (
            <li key={offer.id} className="rounded-md border border-slate-200 p-3 text-sm">
              <p className="font-medium">
                Version {offer.version}:{" "}
                {offer.kind === "request" ? `${clientName}'s request` : `${artistName}'s quote`} ·{" "}
                {formatPaise(offer.document.price.totalPaise)} ·{" "}
                {offer.expired ? "Expired" : STATUS_WORDS[offer.status]}
              </p>
              <p className="text-slate-600">
                {formatWallClock(offer.createdAt, timeZone, { withZone: true })}
              </p>
              {changes.length > 0 ? (
                <ul className="mt-1 list-disc pl-5 text-slate-700">
                  {changes.map((c) => (
                    <li key={c}>{c}</li>
                  ))}
                </ul>
              ) : null}
              {offer.acceptedBy.map((a) => (
                <p key={a.party} className="text-slate-700">
                  Accepted by {who(a.party)},{" "}
                  {formatWallClock(a.acceptedAt, timeZone, { withZone: true })}
                </p>
              ))}
              {offer.changeRequests.map((c) => (
                <div key={c.createdAt.toString()} className="mt-2 rounded bg-slate-50 p-2">
                  <p className="font-medium">{clientName} asked for changes</p>
                  <p className="whitespace-pre-wrap wrap-anywhere">{c.message}</p>
                  {c.wishedTotalPaise !== null ? (
                    <p>Total in mind: {formatPaise(c.wishedTotalPaise)}</p>
                  ) : null}
                  {c.wishedDepositBps !== null ? (
                    <p>
                      Deposit: {c.wishedDepositBps === 0 ? "none" : `${c.wishedDepositBps / 100}%`}
                    </p>
                  ) : null}
                  {c.wishedPolicy ? <p>Policy: {c.wishedPolicy}</p> : null}
                </div>
              ))}
              <details className="mt-1">
                <summary className="cursor-pointer text-slate-600">
                  The terms of version {offer.version}
                </summary>
                <OfferTerms offer={offer.document} />
              </details>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
