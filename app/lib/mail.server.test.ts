import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpSink } from "../../tests/support/smtp-sink";
import { loadEnv } from "./env.server";
import { composeMail, createMailer } from "./mail.server";

const dataDir = mkdtempSync(path.join(tmpdir(), "gl-mail-"));
const envWith = (vars: Record<string, string> = {}) =>
  loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    BETTER_AUTH_SECRET: "x".repeat(40),
    ...vars,
  });
const logger = pino({ level: "silent" });

let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sample = () =>
  composeMail("ana@example.com", "Booking for ₹6,250.00 — December 1, 2026", [
    "Hi Ana,",
    "Date: December 1, 2026\nTime: 7:00 PM IST",
    'A <b>bold</b> & "quoted" claim',
    "Open it here: http://localhost:5173/bookings/abc?x=1&y=2",
  ]);

describe("composeMail", () => {
  it("writes the paragraphs as plain text, ending with the signature", () => {
    const mail = sample();
    expect(mail.text).toBe(
      'Hi Ana,\n\nDate: December 1, 2026\nTime: 7:00 PM IST\n\nA <b>bold</b> & "quoted" claim\n\nOpen it here: http://localhost:5173/bookings/abc?x=1&y=2\n\n— GigLedger\n',
    );
  });

  it("says the same in HTML: escaped, lines kept, links clickable", () => {
    const { html } = sample();
    expect(html).toContain("<p>Date: December 1, 2026<br>Time: 7:00 PM IST</p>");
    expect(html).toContain("A &#60;b&#62;bold&#60;/b&#62; &#38; &#34;quoted&#34; claim");
    expect(html).not.toContain("<b>");
    expect(html).toContain(
      '<p>Open it here: <a href="http://localhost:5173/bookings/abc?x=1&#38;y=2">http://localhost:5173/bookings/abc?x=1&#38;y=2</a></p>',
    );
    expect(html).toContain("<p>— GigLedger</p>");
  });
});

describe("the SMTP transport, read back from a real SMTP server", () => {
  it("delivers a text part and an HTML part, with the subject and links intact", async () => {
    const mailer = createMailer(envWith({ SMTP_URL: smtp.url }), logger);
    await mailer.send(sample());
    const got = await smtp.waitForMail("ana@example.com", /Booking for/);
    expect(got.subject).toBe("Booking for ₹6,250.00 — December 1, 2026");
    expect(got.textPart?.replace(/\r\n/g, "\n")).toBe(sample().text);
    expect(got.htmlPart).toContain('<a href="http://localhost:5173/bookings/abc?x=1&#38;y=2">');
    expect(got.headers.from).toContain("no-reply@gigledger.local");
  });
});

describe("the development outbox", () => {
  it("keeps the mail with the links found in its text", async () => {
    const mailer = createMailer(envWith(), logger);
    await mailer.send(sample());
    const [stored] = await mailer.outbox();
    expect(stored).toMatchObject({
      to: "ana@example.com",
      subject: "Booking for ₹6,250.00 — December 1, 2026",
      links: ["http://localhost:5173/bookings/abc?x=1&y=2"],
    });
    expect(stored?.html).toContain("<p>Hi Ana,</p>");
  });
});
