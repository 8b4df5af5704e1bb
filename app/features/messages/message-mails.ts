import { composeMail, type Mail } from "~/lib/mail.server";

/**
 * The e-mail telling one party of a booking that the other wrote. At most one goes out per
 * booking and recipient in 15 minutes while they have unread messages, so it says more may follow.
 */
export function newMessageMail(
  to: string,
  who: { recipientName: string; senderName: string },
  text: string,
  url: string,
): Mail {
  return composeMail(to, `New message from ${who.senderName}`, [
    `Hi ${who.recipientName},`,
    `${who.senderName} wrote:`,
    text,
    "Read the conversation and reply here (we won't e-mail you about every further message until you have read this one):",
    url,
  ]);
}
