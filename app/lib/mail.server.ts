import { createHash, randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Env } from "./env.server";
import type { Logger } from "./logger.server";

export type MailAttachment = { filename: string; contentType: string; content: Buffer };
export type Mail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
};
/** The outbox keeps each attachment's name, type, size and SHA-256, not its bytes. */
type StoredAttachment = { filename: string; contentType: string; size: number; sha256: string };
type StoredMail = Omit<Mail, "attachments"> & {
  id: string;
  sentAt: string;
  links: string[];
  attachments?: StoredAttachment[];
};

export type Mailer = {
  send(mail: Mail): Promise<void>;
  /** The development outbox (newest first); empty for other transports. */
  outbox(): Promise<StoredMail[]>;
};

const LINK = /https?:\/\/[^\s"'<>]+/g;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A line of text as HTML: escaped, with every link clickable. */
function lineToHtml(line: string) {
  let html = "";
  let last = 0;
  for (const match of line.matchAll(LINK)) {
    const url = match[0];
    html += escapeHtml(line.slice(last, match.index));
    html += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = (match.index ?? 0) + url.length;
  }
  return html + escapeHtml(line.slice(last));
}

/**
 * A mail from paragraphs (a paragraph may hold several lines). The plain-text part joins them
 * with blank lines; the HTML part says the same, escaped, with its links clickable. Both end
 * "— GigLedger".
 */
export function composeMail(to: string, subject: string, paragraphs: string[]): Mail {
  const all = [...paragraphs, "— GigLedger"];
  const text = `${all.join("\n\n")}\n`;
  const html = all.map((p) => `<p>${p.split("\n").map(lineToHtml).join("<br>")}</p>`).join("\n");
  return { to, subject, text, html };
}

/**
 * SMTP when SMTP_URL is set; otherwise, for a local app, a development outbox under
 * DATA_DIR/outbox (also logged) that /dev/outbox shows; `log` only writes the log.
 */
export function createMailer(env: Env, logger: Logger): Mailer {
  if (env.mailTransport === "smtp" && env.smtpUrl) {
    const transport = nodemailer.createTransport(env.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: env.smtpFrom, ...mail });
        logger.info({ to: mail.to, subject: mail.subject }, "mail sent");
      },
      outbox: async () => [],
    };
  }
  if (env.mailTransport === "log") {
    return {
      async send(mail) {
        logger.info({ to: mail.to, subject: mail.subject, text: mail.text }, "mail (log only)");
      },
      outbox: async () => [],
    };
  }
  const dir = path.join(env.dataDir, "outbox");
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const { attachments, ...rest } = mail;
      const stored: StoredMail = {
        ...rest,
        ...(attachments?.length
          ? {
              attachments: attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                size: a.content.length,
                sha256: createHash("sha256").update(a.content).digest("hex"),
              })),
            }
          : {}),
        id: randomUUID(),
        sentAt: new Date().toISOString(),
        links: mail.text.match(LINK) ?? [],
      };
      // Sortable file names: the newest mail is the last name.
      await writeFile(path.join(dir, `${Date.now()}-${stored.id}.json`), JSON.stringify(stored));
      logger.info(
        { to: mail.to, subject: mail.subject, links: stored.links },
        "mail written to the development outbox",
      );
    },
    async outbox() {
      const names = await readdir(dir).catch(() => [] as string[]);
      const mails = await Promise.all(
        names
          .filter((n) => n.endsWith(".json"))
          .sort()
          .reverse()
          .slice(0, 200)
          .map(async (n) => JSON.parse(await readFile(path.join(dir, n), "utf8")) as StoredMail),
      );
      return mails;
    },
  };
}
