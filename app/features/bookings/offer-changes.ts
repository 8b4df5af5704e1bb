import type { OfferDocument } from "~/features/agreements/agreement-document";
import { formatLongDate, formatTime } from "~/lib/dates";
import { formatPaise } from "~/lib/money-text";

// What changed from one version of a booking's terms to the next, in plain words, for the
// booking page's timeline ("Total ₹12,000.00 → ₹15,000.00").

const hoursText = (minutes: number) => {
  const hours = minutes / 60;
  return `${hours} ${hours === 1 ? "hour" : "hours"}`;
};

const percent = (bps: number) => `${bps / 100}%`;

const dueText = (days: number) => (days === 0 ? "on the day" : `${days} days before`);

export function offerChanges(before: OfferDocument, after: OfferDocument): string[] {
  const changes: string[] = [];
  const was = <T>(a: T, b: T, line: string) => {
    if (a !== b) changes.push(line);
  };
  was(
    before.event.date,
    after.event.date,
    `Date ${formatLongDate(before.event.date)} → ${formatLongDate(after.event.date)}`,
  );
  was(
    before.event.startTime,
    after.event.startTime,
    `Start ${before.event.startTime ? formatTime(before.event.startTime) : "not set"} → ${after.event.startTime ? formatTime(after.event.startTime) : "not set"}`,
  );
  was(
    before.event.durationMinutes,
    after.event.durationMinutes,
    `Length ${hoursText(before.event.durationMinutes)} → ${hoursText(after.event.durationMinutes)}`,
  );
  was(
    before.price.totalPaise,
    after.price.totalPaise,
    `Total ${formatPaise(before.price.totalPaise)} → ${formatPaise(after.price.totalPaise)}`,
  );
  const labels = (o: OfferDocument) => o.price.lines.map((l) => l.label);
  const added = labels(after).filter((l) => !labels(before).includes(l));
  const removed = labels(before).filter((l) => !labels(after).includes(l));
  if (added.length > 0) changes.push(`Added: ${added.join(", ")}`);
  if (removed.length > 0) changes.push(`Removed: ${removed.join(", ")}`);
  was(
    before.payments.depositBps,
    after.payments.depositBps,
    `Deposit ${percent(before.payments.depositBps)} → ${percent(after.payments.depositBps)}`,
  );
  was(
    before.payments.balanceDueDays,
    after.payments.balanceDueDays,
    `Balance due ${dueText(before.payments.balanceDueDays)} → ${dueText(after.payments.balanceDueDays)}`,
  );
  was(
    before.cancellation.policy,
    after.cancellation.policy,
    `Cancellation policy ${before.cancellation.policyName} → ${after.cancellation.policyName}`,
  );
  was(before.included.join("\n"), after.included.join("\n"), "What is included changed");
  was(before.notes ?? "", after.notes ?? "", "Notes changed");
  return changes;
}
