import PDFDocument from "pdfkit";
import { didDocumentUrl } from "~/features/credentials/did";
import type { ChargeBand } from "~/features/terms/terms-types";
import { MONTH_NAMES, parseDate } from "~/lib/date-text";
import { formatTime, WEEKDAY_NAMES, wallClockIn, weekdayOf, zoneAbbreviation } from "~/lib/dates";
import { formatPaise } from "~/lib/money-text";
import { plural } from "~/lib/number-text";
import { registerPdfFonts, type Script, scriptRuns, type Weight } from "~/lib/pdf-fonts.server";
import type { SignedAgreement } from "./agreement-document";
import { paymentRouteText } from "./payment-route-text";

// The agreement as a PDF for people: a convenience copy that prints agreement.json's hash and
// carries agreement.json inside, byte for byte (docs/decisions/047). The hashed artefact stays
// the JSON. The same JSON always gives the same bytes: no clock, no randomness. The fonts and
// their script runs live in ~/lib/pdf-fonts.server, shared with the money documents.

export { scriptRuns };

// ─── Words ──────────────────────────────────────────────────────────────────────────────────────

/** "2027-02-14" → "Sunday, 14 February 2027". */
function longDate(date: string): string {
  const { year, month, day } = parseDate(date);
  return `${WEEKDAY_NAMES[weekdayOf(date)]}, ${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

/** An instant in the event's zone: "20 November 2026, 3:30 PM IST". */
function moment(at: string, timeZone: string): string {
  const { date, time } = wallClockIn(at, timeZone);
  const { year, month, day } = parseDate(date);
  return `${day} ${MONTH_NAMES[month - 1]} ${year}, ${formatTime(time)} ${zoneAbbreviation(timeZone, at)}`;
}

/** 150 → "2 hours 30 minutes". */
function hoursAndMinutes(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return plural(m, "minute");
  return m === 0 ? plural(h, "hour") : `${plural(h, "hour")} ${plural(m, "minute")}`;
}

/** Notice as people say it: whole days from three days up, hours below. */
function notice(hours: number): string {
  return hours % 24 === 0 && hours > 48 ? plural(hours / 24, "day") : plural(hours, "hour");
}

const percent = (bps: number) => `${bps / 100}%`;

function chargeText(bps: number): string {
  if (bps === 0) return "nothing";
  if (bps === 10000) return "the full total";
  return `${percent(bps)} of the total`;
}

/** Each band in words, longest notice first: ["30 days to 60 days before the start", "10% of the total"]. */
function bandRows(bands: ChargeBand[]): [string, string][] {
  return bands.map((band, i) => {
    const above = bands[i - 1]?.minNoticeHours;
    const when =
      above === undefined
        ? `${notice(band.minNoticeHours)} or more before the start`
        : band.minNoticeHours === 0
          ? `Less than ${notice(above)} before the start`
          : `${notice(band.minNoticeHours)} to ${notice(above)} before the start`;
    return [when, chargeText(band.chargeBps)];
  });
}

/** Where anyone can check the signature: the signer's own site. */
function verifyUrl(signer: string): string {
  const didJson = didDocumentUrl(signer);
  return didJson ? new URL("/verify", didJson).href : "the signer's site at /verify";
}

// ─── Layout ─────────────────────────────────────────────────────────────────────────────────────

const MARGIN = 56;
const INK = "#1f2328";
const MUTED = "#57606a";

type Doc = PDFKit.PDFDocument;
// @types/pdfkit 0.17 lacks the attachment's relationship (PDF/A-3 AFRelationship).
type AttachmentOptions = PDFKit.Mixins.PDFAttachmentOptions & {
  relationship?: "Source" | "Data" | "Alternative" | "Supplement" | "Unspecified";
};

type Run = { script: Script; text: string; width: number };
type Style = { weight: Weight; size: number };
const lineHeight = (style: Style) => style.size * 1.5;

function measured(doc: Doc, text: string, style: Style): Run[] {
  return scriptRuns(text).map((run) => ({
    ...run,
    width: doc.font(`${run.script}-${style.weight}`).fontSize(style.size).widthOfString(run.text),
  }));
}

/**
 * Text broken into lines of runs that fit `width`, at spaces. Laid out here rather than with
 * pdfkit's `continued`, which aligns each run alone and draws a run only once its line is full,
 * so a run could not be wrapped in its own marked content.
 */
function lines(doc: Doc, text: string, style: Style, width: number): Run[][] {
  const out: Run[][] = [];
  let line: Run[] = [];
  let used = 0;
  for (const word of text.split(/(?<= )/)) {
    const runs = measured(doc, word, style);
    const wordWidth = runs.reduce((sum, run) => sum + run.width, 0);
    const trailing = word.endsWith(" ") ? doc.widthOfString(" ") : 0;
    if (line.length > 0 && used + wordWidth - trailing > width) {
      out.push(line);
      line = [];
      used = 0;
    }
    line.push(...runs);
    used += wordWidth;
  }
  if (line.length > 0) out.push(line);
  return out;
}

/**
 * Draws with the text object wrapped in a Span whose ActualText is `text`. The Span goes inside
 * pdfkit's q…Q (around BT…ET): pdfkit's markContent would put it outside, where the flipped
 * matrix makes readers such as poppler place the text elsewhere on the page.
 */
function withActualText(doc: Doc, text: string, draw: () => void) {
  const addContent = doc.addContent;
  const utf16 = Buffer.from(text, "utf16le").swap16().toString("hex").toUpperCase();
  doc.addContent = (data: string) => {
    if (data === "BT") addContent.call(doc, `/Span <</ActualText <FEFF${utf16}>>> BDC`);
    addContent.call(doc, data);
    if (data === "ET") addContent.call(doc, "EMC");
    return doc;
  };
  try {
    draw();
  } finally {
    doc.addContent = addContent;
  }
}

/**
 * Draws text from (x, doc.y) within `width`, left or flush right, and moves doc.y below it. A
 * Devanagari run carries its text as ActualText: shaped glyphs (a reph, a vowel sign drawn
 * before its consonant) do not map back to the characters one by one, so copying or extracting
 * the text would otherwise give them in drawing order.
 */
function write(
  doc: Doc,
  text: string,
  style: Style,
  box: { x?: number; width?: number; align?: "left" | "right" } = {},
) {
  const left = box.x ?? MARGIN;
  const width = box.width ?? doc.page.width - MARGIN - left;
  for (const runs of lines(doc, text, style, width)) {
    keepSpace(doc, lineHeight(style));
    const y = doc.y;
    const lineWidth = runs.reduce((sum, run) => sum + run.width, 0);
    let x = box.align === "right" ? left + width - lineWidth : left;
    for (const run of runs) {
      doc.font(`${run.script}-${style.weight}`).fontSize(style.size);
      const draw = () =>
        // One baseline for every face (their ascenders differ).
        doc.text(run.text, x, y + style.size * 1.1, { lineBreak: false, baseline: "alphabetic" });
      if (run.script === "devanagari") withActualText(doc, run.text, draw);
      else draw();
      x += run.width;
    }
    doc.y = y + lineHeight(style);
  }
  doc.x = MARGIN;
}

/** A new page when fewer than `height` points are left, so a heading keeps its first lines. */
function keepSpace(doc: Doc, height: number) {
  if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
}

const BODY: Style = { weight: "regular", size: 10.5 };
const BODY_BOLD: Style = { weight: "bold", size: 10.5 };

function heading(doc: Doc, text: string) {
  doc.moveDown(0.8);
  keepSpace(doc, 60);
  doc.fillColor(INK);
  write(doc, text, { weight: "bold", size: 13 });
  doc.moveDown(0.1);
}

function paragraph(doc: Doc, text: string, options: { muted?: boolean; bold?: boolean } = {}) {
  doc.fillColor(options.muted ? MUTED : INK);
  write(doc, text, options.bold ? BODY_BOLD : BODY);
  doc.fillColor(INK);
}

/** A label and its value side by side: the value wraps, or is an amount set flush right. */
function row(
  doc: Doc,
  label: string,
  value: string,
  options: { bold?: boolean; amount?: boolean } = {},
) {
  const style = options.bold ? BODY_BOLD : BODY;
  const width = doc.page.width - 2 * MARGIN;
  const labelWidth = options.amount ? width - 130 : 160;
  const valueBox = { x: MARGIN + labelWidth, width: width - labelWidth };
  // The whole row on one page, so label and value stay side by side.
  const rows = Math.max(
    lines(doc, label, style, labelWidth - 12).length,
    lines(doc, value, style, valueBox.width).length,
  );
  keepSpace(doc, rows * lineHeight(style));
  const top = doc.y;
  doc.fillColor(options.amount ? INK : MUTED);
  write(doc, label, style, { width: labelWidth - 12 });
  const bottom = doc.y;
  doc.fillColor(INK);
  doc.y = top;
  write(doc, value, style, { ...valueBox, align: options.amount ? "right" : "left" });
  doc.y = Math.max(bottom, doc.y);
}

function rule(doc: Doc) {
  const y = doc.y + 2;
  doc
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .lineWidth(0.5)
    .strokeColor("#d0d7de")
    .stroke();
  doc.y = y + 4;
}

/**
 * agreement.json's exact bytes as an A4 PDF that reads like the agreement, with the file attached
 * (relationship Source). Rendering the same JSON twice gives identical bytes.
 */
export async function renderAgreementPdf(json: string): Promise<Buffer> {
  const { agreement, signature } = JSON.parse(json) as SignedAgreement;
  if (agreement?.type !== "GigLedgerAgreement" || signature?.type !== "GigLedgerAgreementSignature")
    throw new TypeError("Not a signed GigLedger agreement");
  const { offer } = agreement;
  const { event, price, payments, cancellation } = offer;
  const frozenAt = new Date(agreement.frozenAt);
  const hash = signature.sha256;

  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    // PDF/A-3 is PDF 1.7, and pdfkit writes the XMP metadata (with pdfaid) only above 1.3.
    pdfVersion: "1.7",
    subset: "PDF/A-3b",
    // Not `tagged`: that would declare a structure tree this layout does not build.
    lang: "en-IN",
    displayTitle: true,
    // pdfkit derives the file ID from this info (an MD5 of it), so the ID is fixed by the hash
    // and the freezing time. Only entries the XMP metadata repeats (no ModDate), as PDF/A wants.
    info: {
      Title: "Booking agreement",
      Author: "GigLedger",
      Subject: `Booking agreement ${hash}`,
      Keywords: `sha256:${hash}`,
      Creator: "GigLedger",
      Producer: "GigLedger (pdfkit)",
      CreationDate: frozenAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  registerPdfFonts(doc);

  const attachment: AttachmentOptions = {
    name: "agreement.json",
    type: "application/json",
    description: `The signed agreement (SHA-256 ${hash})`,
    creationDate: frozenAt,
    modifiedDate: frozenAt,
    relationship: "Source",
  };
  doc.file(Buffer.from(json, "utf8"), attachment);

  doc.fillColor(INK);
  write(doc, "Booking agreement", { weight: "bold", size: 22 });
  doc.moveDown(0.3);
  paragraph(doc, "Agreement hash (SHA-256)", { muted: true });
  write(doc, hash, BODY_BOLD);
  if (agreement.supersedes)
    paragraph(doc, `This agreement replaces the agreement with hash ${agreement.supersedes}.`);
  doc.moveDown(0.3);
  const agreed = moment(agreement.frozenAt, event.timeZone);
  paragraph(doc, `Booking ${agreement.bookingId} · agreed ${agreed}`, { muted: true });

  heading(doc, "Parties");
  row(doc, "Artist", offer.artist.name);
  row(doc, "Client", offer.client.name);

  heading(doc, "Performance");
  row(doc, "Event", event.eventName ? `${event.eventType}: ${event.eventName}` : event.eventType);
  row(doc, "Date", longDate(event.date));
  row(doc, "Start", event.startTime ? formatTime(event.startTime) : "Start time to be agreed");
  row(doc, "Duration", hoursAndMinutes(event.durationMinutes));
  row(doc, "Venue", event.venue);
  row(doc, "Time zone", event.timeZone);

  heading(doc, "Price");
  for (const line of price.lines)
    row(doc, line.label, formatPaise(line.amountPaise), { amount: true });
  rule(doc);
  row(doc, "Total", formatPaise(price.totalPaise), { amount: true, bold: true });

  heading(doc, "Payments");
  row(doc, `Deposit (${percent(payments.depositBps)})`, formatPaise(payments.depositPaise), {
    amount: true,
  });
  row(
    doc,
    `Balance, due by ${longDate(payments.balanceDueDate)}`,
    formatPaise(payments.balancePaise),
    { amount: true },
  );
  doc.moveDown(0.2);
  paragraph(doc, paymentRouteText(payments));

  if (offer.included.length > 0) {
    heading(doc, "Included");
    for (const item of offer.included) paragraph(doc, `•  ${item}`);
  }
  if (offer.notes) {
    heading(doc, "Notes");
    paragraph(doc, offer.notes);
  }

  heading(doc, `Cancellation: ${cancellation.policyName} (version ${cancellation.policyVersion})`);
  paragraph(doc, "If the client cancels, the client pays by the notice given:");
  doc.moveDown(0.2);
  row(doc, "Client cancels", "The client pays", { amount: true, bold: true });
  for (const [when, pays] of bandRows(cancellation.clientCharges))
    row(doc, when, pays, { amount: true });
  doc.moveDown(0.3);
  paragraph(doc, "Anything paid beyond what the client pays is returned.");
  paragraph(
    doc,
    `Cooling-off: if the client cancels within ${notice(cancellation.coolingOffHours)} of accepting and the event is at least ${notice(cancellation.coolingOffMinNoticeHours)} away, the client pays nothing.`,
  );
  if (cancellation.artistCancels === "fullRefund")
    paragraph(doc, "If the artist cancels, everything paid is returned.");

  heading(doc, "Accepted");
  for (const acceptance of agreement.acceptances) {
    const who = acceptance.party === "artist" ? "Artist" : "Client";
    paragraph(
      doc,
      `${who} ${acceptance.name} accepted on ${moment(acceptance.acceptedAt, event.timeZone)}`,
    );
    paragraph(doc, `shown the offer with hash ${acceptance.sha256Shown}`, { muted: true });
    doc.moveDown(0.2);
  }
  paragraph(doc, `Offer hash both accepted: ${agreement.offerSha256}`, { muted: true });

  heading(doc, "Signature");
  paragraph(
    doc,
    `Signed by GigLedger (${signature.signer}) with key ${signature.publicKeyMultibase}.`,
  );
  paragraph(
    doc,
    `Check this agreement at ${verifyUrl(signature.signer)} or with npm run verify-cv -- agreement.json. agreement.json is attached to this PDF; its hash is printed above.`,
    { muted: true },
  );

  doc.end();
  return done;
}
