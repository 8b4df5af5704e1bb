// Every money event in an e-mail to whom it concerns (docs/decisions/055), each sent once
// (sent_mails) by the `payments.mail` job, in words a client and an artist read at a glance.

import { sql } from "drizzle-orm";
import type { Env } from "~/lib/env.server";
import type { QueueHandler } from "~/lib/jobs.server";
import { composeMail, type Mail, type Mailer } from "~/lib/mail.server";
import { sendMailOnce } from "~/lib/mail-once.server";
import { formatPaise } from "~/lib/money-text";
import { type Database, type Queryable, queryRows } from "~db/client";
import { moneyDocumentsFor } from "./money-documents.server";
import { MONEY_MAIL_QUEUE, type MoneyEventKind } from "./money-events.server";

type Ctx = { db: Database; env: Env; mailer: Mailer };

type Parties = {
  bookingId: string;
  kind: MoneyEventKind;
  amountPaise: number | string | null;
  detail: Record<string, string | number | null>;
  artistName: string | null;
  artistEmail: string | null;
  clientName: string | null;
  clientEmail: string | null;
  eventDate: string;
  at: Date | string;
};

export function moneyMailJobs(ctx: Ctx): QueueHandler[] {
  return [
    {
      queue: MONEY_MAIL_QUEUE,
      leaseSeconds: 120,
      outside: async (job) => {
        for (const to of ["client", "artist"] as const)
          await sendMailOnce(ctx, `money:${job.key}:${to}`, (tx) =>
            mailFor(tx, ctx.env, job.key, to),
          );
      },
    },
  ];
}

async function mailFor(
  tx: Queryable,
  env: Pick<Env, "appUrl" | "platformGstin" | "invoicePrefix" | "commissionBps">,
  eventId: string,
  to: "client" | "artist",
): Promise<Mail | null> {
  const [row] = await queryRows<Parties>(
    tx,
    sql`SELECT e.booking_id AS "bookingId", e.kind, e.amount_paise AS "amountPaise", e.detail, e.at,
          ap.artist_name AS "artistName", au.email AS "artistEmail",
          cu.name AS "clientName", cu.email AS "clientEmail", b.event_date AS "eventDate"
        FROM money_events e JOIN bookings b ON b.id = e.booking_id
        LEFT JOIN artist_profiles ap ON ap.id = b.artist_profile_id
        LEFT JOIN users au ON au.id = ap.user_id
        LEFT JOIN users cu ON cu.id = b.client_user_id
        WHERE e.id = ${eventId}`,
  );
  if (!row) return null;
  const email = to === "client" ? row.clientEmail : row.artistEmail;
  if (!email) return null;
  const text = moneyMailText(row, to);
  if (!text) return null;
  const link = new URL(`/bookings/${row.bookingId}`, env.appUrl).toString();
  const mail = composeMail(email, text.subject, [...text.paragraphs, `See the booking: ${link}`]);
  const attachments = await moneyDocumentsFor(tx, env, { ...row, at: new Date(row.at) }, to);
  return attachments.length > 0 ? { ...mail, attachments } : mail;
}

/** The subject and paragraphs of a money event's mail to one party, or null when none is sent. */
export function moneyMailText(
  row: Pick<Parties, "kind" | "amountPaise" | "detail" | "artistName" | "clientName" | "eventDate">,
  to: "client" | "artist",
): { subject: string; paragraphs: string[] } | null {
  const amount = row.amountPaise === null ? "" : formatPaise(Number(row.amountPaise));
  const artist = row.artistName ?? "the artist";
  const client = row.clientName ?? "The client";
  const on = `your booking for ${row.eventDate}`;
  switch (row.kind) {
    case "deposit_requested":
      return to === "client"
        ? {
            subject: `Pay ${amount} to confirm your booking with ${artist}`,
            paragraphs: [
              `${artist} accepted. Pay ${amount} within 48 hours to confirm ${on}; the date is not held for you until it is paid.`,
              "The money is held by our payment provider and reaches the artist 48 hours after the event.",
            ],
          }
        : {
            subject: `Waiting for the client's payment of ${amount}`,
            paragraphs: [
              `The booking for ${row.eventDate} is agreed. It is confirmed when the client pays ${amount}; we will tell you.`,
            ],
          };
    case "payment_received":
      return to === "client"
        ? {
            subject: `Payment received: ${amount}`,
            paragraphs: [
              `We received your payment of ${amount} for ${on} with ${artist}. Thank you.`,
            ],
          }
        : {
            subject: `${client} paid ${amount}`,
            paragraphs: [
              `${client} paid ${amount} for the booking on ${row.eventDate}. Your share is held for you and released 48 hours after the event.`,
            ],
          };
    case "payment_failed":
      return to === "client"
        ? {
            subject: "Your payment did not go through",
            paragraphs: [
              `Your payment of ${amount} failed. No money was taken; you can try again from the booking.`,
            ],
          }
        : null;
    case "payout_held":
      return null;
    case "payout_released":
      return to === "artist"
        ? {
            subject: `Payout released: ${amount}`,
            paragraphs: [
              `Your payout of ${amount} for the booking on ${row.eventDate} was released. It usually reaches your bank account on the next working day.`,
            ],
          }
        : null;
    case "refund_started":
      return {
        subject: `Refund of ${amount} on its way`,
        paragraphs: [
          to === "client"
            ? `We are refunding ${amount} for ${on}, as the agreed cancellation policy says. Refunds usually reach your account in 5–7 working days.`
            : `${client} is refunded ${amount} for the booking on ${row.eventDate}, as the agreed cancellation policy says.`,
        ],
      };
    case "refund_paid":
      return to === "client"
        ? {
            subject: `Refunded: ${amount}`,
            paragraphs: [
              `Your refund of ${amount} was sent (reference ${row.detail.refundId ?? "pending"}). It usually reaches your account in 5–7 working days.`,
            ],
          }
        : null;
    case "automatic_refund":
      return to === "client"
        ? {
            subject: `Your payment of ${amount} is being refunded`,
            paragraphs: [
              `The booking could no longer take your payment (it was cancelled or the date was booked meanwhile), so all ${amount} is being refunded. Refunds usually reach your account in 5–7 working days.`,
            ],
          }
        : null;
    case "balance_requested":
    case "balance_reminder":
      return to === "client"
        ? {
            subject:
              row.detail.stage === "overdue"
                ? `Your balance of ${amount} is overdue`
                : `Your balance of ${amount} is due`,
            paragraphs: [
              `The balance of ${amount} for ${on} with ${artist} is due${row.detail.stage === "3_days_before" ? " in 3 days" : row.detail.stage === "due_today" ? " today" : ""}. Pay it from the booking page.`,
            ],
          }
        : null;
    case "more_time_given":
      return to === "client"
        ? {
            subject: `${artist} gave you more time to pay`,
            paragraphs: [
              `You now have until ${String(row.detail.dueAt ?? "").slice(0, 10)} to pay the balance.`,
            ],
          }
        : null;
    case "problem_reported": {
      const by = row.detail.party === "client" ? "client" : "artist";
      if (to === by) return null;
      return {
        subject: `A problem was reported on your booking for ${row.eventDate}`,
        paragraphs: [
          `${by === "client" ? client : artist} reported a problem: ${String(row.detail.category ?? "")}. The payout is on hold until GigLedger decides, by ${String(row.detail.dueDate ?? "")}.`,
          "You may answer once, from the booking's problem page.",
        ],
      };
    }
    case "problem_answered": {
      const by = row.detail.party === "client" ? "client" : "artist";
      if (to === by) return null;
      return {
        subject: `Your problem report for ${row.eventDate} was answered`,
        paragraphs: ["The other party answered. GigLedger now decides and tells you both."],
      };
    }
    case "problem_decided":
      return {
        subject: `GigLedger decided the problem report for ${row.eventDate}`,
        paragraphs: [
          String(row.detail.outcome ?? ""),
          `The reason: ${String(row.detail.reason ?? "")}`,
        ],
      };
    case "cancelled_for_non_payment":
      return {
        subject: `Booking for ${row.eventDate} cancelled: not paid`,
        paragraphs: [
          row.detail.stage === "deposit"
            ? "The deposit was not paid in time, so the booking was cancelled. Nothing was charged."
            : "The balance was not paid, so the artist cancelled the booking. What the cancellation policy gives back is being refunded.",
        ],
      };
  }
}
