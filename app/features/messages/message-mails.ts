import type { Mail } from "~/lib/mail.server";

/** The e-mail telling one party of a booking that the other wrote. */
export function newMessageMail(
  to: string,
  recipientName: string,
  senderName: string,
  text: string,
  url: string,
): Mail {
  const lines = [`Hi ${recipientName},`, `${senderName} wrote:`, text, `Reply here: ${url}`];
  return {
    to,
    subject: `New message from ${senderName}`,
    text: `${lines.join("\n\n")}\n\n— GigLedger`,
  };
}
