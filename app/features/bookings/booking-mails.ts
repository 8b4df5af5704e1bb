import type { Mail } from "~/lib/mail.server";

function mail(to: string, subject: string, lines: string[]): Mail {
  return { to, subject, text: `${lines.join("\n\n")}\n\n— GigLedger` };
}

export const bookingMails = {
  newRequest: (to: string, artistName: string, clientName: string, date: string, url: string) =>
    mail(to, `New booking request for ${date}`, [
      `Hi ${artistName},`,
      `${clientName} would like to book you on ${date}. Review the request and accept or decline it:`,
      url,
    ]),
  responded: (
    to: string,
    clientName: string,
    artistName: string,
    date: string,
    accepted: boolean,
    url: string,
  ) =>
    mail(
      to,
      accepted ? `${artistName} accepted your booking` : `${artistName} declined your booking`,
      [
        `Hi ${clientName},`,
        accepted
          ? `Good news: ${artistName} confirmed your booking for ${date}.`
          : `${artistName} can't take your booking for ${date}. You can look for another date or artist on GigLedger.`,
        url,
      ],
    ),
};
