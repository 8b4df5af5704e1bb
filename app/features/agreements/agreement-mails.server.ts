import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import { formatLongDate } from "~/lib/dates";
import { enqueueJob, type QueueHandler } from "~/lib/jobs.server";
import { composeMail } from "~/lib/mail.server";
import { sendMailOnce } from "~/lib/mail-once.server";
import { formatPaise } from "~/lib/money-text";
import { type Queryable, queryRows } from "~db/client";
import type { SignedAgreement } from "./agreement-document";
import { renderAgreementPdf } from "./agreement-pdf.server";

// Both parties get the agreement by mail once it is frozen: its hash, a link to its page, and the
// PDF (with agreement.json inside) attached. A job sends them, each at most once (decision 044).

export const AGREEMENT_MAIL_QUEUE = "agreements.mail";

/** Adds the agreement's mails in the transaction that froze it. */
export async function queueAgreementMails(tx: Queryable, agreementId: string) {
  await enqueueJob(tx, { queue: AGREEMENT_MAIL_QUEUE, key: agreementId });
}

type Ctx = Pick<AppContext, "db" | "env" | "mailer">;

async function sendAgreementMails(ctx: Ctx, agreementId: string) {
  const [row] = await queryRows<{ json: string; sha256: string; status: string }>(
    ctx.db,
    sql`SELECT json, sha256, status FROM agreements WHERE id = ${agreementId}`,
  );
  if (!row || row.status !== "in_force") return;
  const signed = JSON.parse(row.json) as SignedAgreement;
  const { offer } = signed.agreement;
  const pdf = await renderAgreementPdf(row.json);
  const url = new URL(`/bookings/${offer.bookingId}/agreement`, ctx.env.appUrl).href;
  const parties = [
    {
      party: "artist",
      userId: offer.artist.userId,
      name: offer.artist.name,
      other: offer.client.name,
    },
    {
      party: "client",
      userId: offer.client.userId,
      name: offer.client.name,
      other: offer.artist.name,
    },
  ];
  for (const p of parties) {
    await sendMailOnce(ctx, `${AGREEMENT_MAIL_QUEUE}:${agreementId}:${p.party}`, async (tx) => {
      const [user] = await queryRows<{ email: string }>(
        tx,
        sql`SELECT email FROM users WHERE id = ${p.userId}`,
      );
      if (!user) return null;
      const mail = composeMail(
        user.email,
        `Your booking agreement with ${p.other} for ${formatLongDate(offer.event.date)}`,
        [
          `Hi ${p.name},`,
          signed.agreement.supersedes
            ? `You and ${p.other} agreed a change to your booking. This agreement replaces the earlier one.`
            : `You and ${p.other} agreed the booking for ${formatLongDate(offer.event.date)}.`,
          `Total: ${formatPaise(offer.price.totalPaise)}\nCancellation policy: ${offer.cancellation.policyName}`,
          `Agreement hash (SHA-256): ${row.sha256}`,
          "The signed agreement is attached as a PDF with agreement.json inside it. Read it, download it, or check it at any time here:",
          url,
        ],
      );
      return {
        ...mail,
        attachments: [
          {
            filename: `gigledger-agreement-${row.sha256.slice(0, 12)}.pdf`,
            contentType: "application/pdf",
            content: pdf,
          },
        ],
      };
    });
  }
}

/** The agreements' background work: the agreement mails. */
export function agreementJobs(ctx: Ctx): QueueHandler[] {
  return [
    {
      queue: AGREEMENT_MAIL_QUEUE,
      leaseSeconds: 120,
      outside: (job) => sendAgreementMails(ctx, job.key),
    },
  ];
}
