import type { Mail } from "~/lib/mail.server";

/** Plain-text first: readable in any client, and the links are easy to find. */
function mail(to: string, subject: string, lines: string[]): Mail {
  const text = `${lines.join("\n\n")}\n\n— GigLedger`;
  const html = lines
    .map((l) =>
      /^https?:\/\//.test(l)
        ? `<p><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></p>`
        : `<p>${escapeHtml(l)}</p>`,
    )
    .join("");
  return { to, subject, text, html: `${html}<p>— GigLedger</p>` };
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const accountMails = {
  confirmSignUp: (to: string, name: string, url: string) =>
    mail(to, "Confirm your GigLedger account", [
      `Hi ${name},`,
      "Welcome to GigLedger! Please confirm your e-mail address to finish creating your account:",
      url,
      "If you did not sign up, you can ignore this e-mail.",
    ]),
  confirmNewEmail: (to: string, name: string, url: string) =>
    mail(to, "Confirm your new GigLedger e-mail address", [
      `Hi ${name},`,
      "You asked to use this address for your GigLedger account. Confirm it with this link:",
      url,
      "If you did not ask for this, ignore this e-mail and nothing changes.",
    ]),
  resetPassword: (to: string, name: string, url: string) =>
    mail(to, "Reset your GigLedger password", [
      `Hi ${name},`,
      "Someone (hopefully you) asked to reset your GigLedger password. This link works once and expires in 30 minutes:",
      url,
      "If you did not ask for this, you can ignore this e-mail: your password stays the same.",
    ]),
  existingAccountSignUp: (to: string, name: string, signInUrl: string) =>
    mail(to, "You already have a GigLedger account", [
      `Hi ${name},`,
      "Someone tried to sign up to GigLedger with this e-mail address, but you already have an account. You can sign in here:",
      signInUrl,
      "Forgot your password? Use 'Forgot password?' on the sign-in page.",
    ]),
};
