import { SMTPServer } from "smtp-server";
import { freePort } from "./free-port";

/** One part of a received mail, its body decoded to text. */
export type MailPart = { contentType: string; body: string };

export type ReceivedMail = {
  to: string[];
  raw: string;
  /** The raw message with quoted-printable soft breaks and escapes undone (headers included). */
  text: string;
  /** The Subject header, encoded words decoded. */
  subject: string;
  headers: Record<string, string>;
  /** Every leaf part (a single-part mail has one). */
  parts: MailPart[];
  /** The text/plain part's body, or null when there is none. */
  textPart: string | null;
  /** The text/html part's body, or null when there is none. */
  htmlPart: string | null;
};

/** Bytes written as quoted-printable, back to text (UTF-8). */
function decodeQuotedPrintable(raw: string) {
  const bytes: number[] = [];
  const soft = raw.replace(/=\r?\n/g, "");
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i] as string, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** RFC 2047 encoded words ("=?UTF-8?Q?…?=" / "=?UTF-8?B?…?="), as in a Subject. */
function decodeHeader(value: string) {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(
      /=\?([^?]+)\?([QB])\?([^?]*)\?=/gi,
      (_, _charset: string, kind: string, text: string) =>
        kind.toUpperCase() === "B"
          ? Buffer.from(text, "base64").toString("utf8")
          : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function splitHead(raw: string) {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return { head: raw, body: "" };
  const gap = raw.slice(at).match(/^\r?\n\r?\n/)?.[0].length ?? 2;
  return { head: raw.slice(0, at), body: raw.slice(at + gap) };
}

function parseHeaders(head: string) {
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined) {
  switch ((encoding ?? "7bit").toLowerCase()) {
    case "quoted-printable":
      return decodeQuotedPrintable(body);
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    default:
      return body;
  }
}

/** The leaf parts of a MIME entity, multipart/* opened recursively. */
function leafParts(headers: Record<string, string>, body: string): MailPart[] {
  const contentType = headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    const sections = body.split(`--${boundary}`).slice(1);
    return sections
      .filter((section) => !section.startsWith("--"))
      .flatMap((section) => {
        const { head, body: inner } = splitHead(section.replace(/^\r?\n/, ""));
        return leafParts(parseHeaders(head), inner.replace(/\r?\n$/, ""));
      });
  }
  return [
    {
      contentType: contentType.split(";")[0]?.trim().toLowerCase() ?? "text/plain",
      body: decodeBody(body, headers["content-transfer-encoding"]),
    },
  ];
}

/** Reads a received message: its headers, subject and decoded parts. */
export function parseMail(to: string[], raw: string): ReceivedMail {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const parts = leafParts(headers, body);
  return {
    to,
    raw,
    text: decodeQuotedPrintable(raw),
    subject: decodeHeader(headers.subject ?? ""),
    headers,
    parts,
    textPart: parts.find((p) => p.contentType === "text/plain")?.body ?? null,
    htmlPart: parts.find((p) => p.contentType === "text/html")?.body ?? null,
  };
}

/** A real SMTP server on 127.0.0.1 that keeps every mail it receives. */
export async function startSmtpSink() {
  const mails: ReceivedMail[] = [];
  const port = await freePort();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        raw += chunk;
      });
      stream.on("end", () => {
        mails.push(
          parseMail(
            session.envelope.rcptTo.map((r) => r.address),
            raw,
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** The first mail to `to` whose subject (or, failing that, anything in it) matches. */
    async waitForMail(to: string, subject: RegExp, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = mails.find(
          (m) => m.to.includes(to) && (subject.test(m.subject) || subject.test(m.text)),
        );
        if (mail) return mail;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to} matching ${subject}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
