/**
 * The money documents as PDFs: the client's payment and refund receipts, the artist's payout
 * statement and GigLedger's commission invoice to the artist (design money-and-terms §5.3–§5.4).
 * Drawn with pdfkit and the agreement's Noto fonts (docs/decisions/049); the same input always
 * gives the same bytes: every date comes from the input, none from the clock.
 */
import PDFDocument from "pdfkit";
import { MONTH_NAMES, parseDate } from "~/lib/date-text";
import { formatTime, wallClockIn, zoneAbbreviation } from "~/lib/dates";
import { assertPaise, type Paise, shareOf } from "~/lib/money";
import { formatPaise } from "~/lib/money-text";
import {
  fontName,
  registerPdfFonts,
  type Script,
  scriptRuns,
  type Weight,
} from "~/lib/pdf-fonts.server";

/** Money documents speak Indian time: the receipts and the invoice are Indian records. */
const ZONE = "Asia/Kolkata";

// ─── Words ──────────────────────────────────────────────────────────────────────────────────────

const shortMonth = (month: number) => (MONTH_NAMES[month - 1] ?? "").slice(0, 3);

/** "2026-12-12" → "12 Dec 2026". */
function dayText(date: string): string {
  const { year, month, day } = parseDate(date);
  return `${day} ${shortMonth(month)} ${year}`;
}

/** An instant's day in India: "12 Dec 2026". */
const dayOf = (at: Date) => dayText(wallClockIn(at, ZONE).date);

/** An instant in India: "12 Dec 2026, 3:30 PM IST". */
function momentOf(at: Date): string {
  const { date, time } = wallClockIn(at, ZONE);
  return `${dayText(date)}, ${formatTime(time)} ${zoneAbbreviation(ZONE, at)}`;
}

const percent = (bps: number) => `${bps / 100}%`;

function paise(value: Paise, name: string): Paise {
  assertPaise(value, name);
  return value;
}

// ─── Layout: a title, key/value sections, a footer ─────────────────────────────────────────────

const MARGIN = 56;
const INK = "#1f2328";
const MUTED = "#57606a";
const AMOUNT_WIDTH = 130;
const LABEL_WIDTH = 170;

type Doc = PDFKit.PDFDocument;
type Style = { weight: Weight; size: number };
type Run = { script: Script; text: string; width: number };
const BODY: Style = { weight: "regular", size: 10.5 };
const BOLD: Style = { weight: "bold", size: 10.5 };
const SMALL: Style = { weight: "regular", size: 9 };
const lineHeight = (style: Style) => style.size * 1.5;

type Row = {
  label: string;
  value: string;
  /** Set flush right in the amount column. */
  amount?: boolean;
  bold?: boolean;
  /** A rule above the row, as above a total. */
  ruled?: boolean;
};
type Section = { heading: string; rows?: Row[]; notes?: string[] };
type MoneyDocument = {
  title: string;
  /** The document's number or reference, also in the PDF's Subject (and so its file ID). */
  reference: string;
  /** The document's own date: its CreationDate, never the clock's. */
  date: Date;
  subtitle: string;
  sections: Section[];
  footer: string[];
};

function measured(doc: Doc, text: string, style: Style): Run[] {
  return scriptRuns(text).map((run) => ({
    ...run,
    width: doc
      .font(fontName(run.script, style.weight))
      .fontSize(style.size)
      .widthOfString(run.text),
  }));
}

/** Text broken at spaces into lines of runs that fit `width`. */
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
 * Draws a run; a Devanagari one inside a Span whose ActualText is its text, so copying or
 * pdftotext gives a name in reading order rather than in shaped-glyph order (as the agreement).
 */
function drawRun(doc: Doc, run: Run, x: number, baseline: number) {
  const draw = () => doc.text(run.text, x, baseline, { lineBreak: false, baseline: "alphabetic" });
  if (run.script !== "devanagari") return void draw();
  const addContent = doc.addContent;
  const utf16 = Buffer.from(run.text, "utf16le").swap16().toString("hex").toUpperCase();
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

/** Writes text from (x, doc.y) within `width`, left or flush right; doc.y moves below it. */
function write(
  doc: Doc,
  text: string,
  style: Style,
  box: { x?: number; width?: number; align?: "left" | "right" } = {},
) {
  const left = box.x ?? MARGIN;
  const width = box.width ?? doc.page.width - MARGIN - left;
  for (const runs of lines(doc, text, style, width)) {
    if (doc.y + lineHeight(style) > doc.page.height - MARGIN) doc.addPage();
    const y = doc.y;
    const lineWidth = runs.reduce((sum, run) => sum + run.width, 0);
    let x = box.align === "right" ? left + width - lineWidth : left;
    for (const run of runs) {
      doc.font(fontName(run.script, style.weight)).fontSize(style.size);
      // One baseline for every face (their ascenders differ).
      drawRun(doc, run, x, y + style.size * 1.1);
      x += run.width;
    }
    doc.y = y + lineHeight(style);
  }
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

/** A label and its value side by side, on one page; an amount sits flush right. */
function row(doc: Doc, { label, value, amount, bold, ruled }: Row) {
  if (ruled) rule(doc);
  const style = bold ? BOLD : BODY;
  const width = doc.page.width - 2 * MARGIN;
  const labelWidth = amount ? width - AMOUNT_WIDTH : LABEL_WIDTH;
  const valueBox = { x: MARGIN + labelWidth, width: width - labelWidth };
  const height =
    Math.max(
      lines(doc, label, style, labelWidth - 12).length,
      lines(doc, value, style, valueBox.width).length,
    ) * lineHeight(style);
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
  const top = doc.y;
  doc.fillColor(amount || bold ? INK : MUTED);
  write(doc, label, style, { width: labelWidth - 12 });
  const bottom = doc.y;
  doc.fillColor(INK);
  doc.y = top;
  write(doc, value, style, { ...valueBox, align: amount ? "right" : "left" });
  doc.y = Math.max(bottom, doc.y);
}

/** Draws a money document as an A4 PDF, the same bytes for the same input. */
async function renderMoneyDocument(spec: MoneyDocument): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    // As the agreement: PDF/A-3b declared (not validated), PDF 1.7 so pdfkit writes the XMP.
    pdfVersion: "1.7",
    subset: "PDF/A-3b",
    lang: "en-IN",
    displayTitle: true,
    // pdfkit derives the file ID from the info: fixed by the reference and the document's date.
    info: {
      Title: spec.title,
      Author: "GigLedger",
      Subject: `${spec.title} ${spec.reference}`,
      Creator: "GigLedger",
      Producer: "GigLedger (pdfkit)",
      CreationDate: spec.date,
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  registerPdfFonts(doc);

  doc.fillColor(MUTED);
  write(doc, "GigLedger", BOLD);
  doc.fillColor(INK);
  write(doc, spec.title, { weight: "bold", size: 22 });
  doc.fillColor(MUTED);
  write(doc, spec.subtitle, BODY);
  for (const section of spec.sections) {
    doc.y += 14;
    doc.fillColor(INK);
    write(doc, section.heading, { weight: "bold", size: 13 });
    doc.y += 2;
    for (const item of section.rows ?? []) row(doc, item);
    if (section.notes?.length) doc.y += 4;
    for (const note of section.notes ?? []) {
      doc.fillColor(INK);
      write(doc, note, BODY);
    }
  }
  doc.y += 18;
  rule(doc);
  doc.fillColor(MUTED);
  for (const text of spec.footer) write(doc, text, SMALL);

  doc.end();
  return done;
}

// ─── The documents ──────────────────────────────────────────────────────────────────────────────

export type DocumentEvent = {
  /** The event's calendar date, "2026-12-12". */
  date: string;
  venue: string;
  eventType: string;
};

type ClientReceipt = {
  receiptNumber: string;
  bookingId: string;
  bookingUrl: string;
  clientName: string;
  artistName: string;
  event: DocumentEvent;
  /** The agreement's hash, which the receipt ties the payment to. */
  agreementSha256: string;
};

export type PaymentReceiptInput = ClientReceipt & {
  payment: {
    purpose: "deposit" | "balance" | "full";
    amountPaise: Paise;
    paidAt: Date;
    providerPaymentId: string;
  };
  /** The agreed total. */
  totalPaise: Paise;
  /** Everything the client has paid for the booking, this payment included. */
  paidSoFarPaise: Paise;
};

export type RefundReceiptInput = ClientReceipt & {
  refund: { amountPaise: Paise; refundedAt: Date; providerRefundId: string; reason: string };
  /** What the client had paid for the booking before this refund. */
  paidPaise: Paise;
};

export type PayoutStatementInput = {
  artistName: string;
  legalName: string;
  /** Where the payout goes, masked: "HDFC Bank ····1234". */
  payoutDestination: string;
  bookingId: string;
  event: DocumentEvent;
  /**
   * The statement's lines in order, deductions as negative paise: client paid, commission, GST
   * on commission, TDS, refunded to client, and last the payout, which is set as the total.
   */
  lines: { label: string; paise: Paise }[];
  heldOrReleased: { status: "held" | "released"; releaseAt: Date | null; releasedAt: Date | null };
};

export type CommissionInvoiceInput = {
  invoiceNumber: string;
  issuedAt: Date;
  financialYear: string;
  seller: { name: string; gstin?: string; address?: string };
  buyer: { legalName: string; artistName: string; panMasked: string };
  bookingId: string;
  description: string;
  commissionPaise: Paise;
  gstPaise: Paise;
  gstBps: number;
  commissionBps: number;
};

const PURPOSES = {
  deposit: "Deposit",
  balance: "Balance",
  full: "Full payment",
} as const;

function bookingRows(input: ClientReceipt): Row[] {
  return [
    { label: "Artist", value: input.artistName },
    { label: "Client", value: input.clientName },
    { label: "Event", value: input.event.eventType },
    { label: "Date", value: dayText(input.event.date) },
    { label: "Venue", value: input.event.venue },
    { label: "Booking", value: input.bookingId },
  ];
}

function receiptFooter(input: ClientReceipt): string[] {
  return [
    `Agreement SHA-256: ${input.agreementSha256}`,
    `Your booking: ${input.bookingUrl}`,
    "A receipt for money received through GigLedger for the artist's booking; not a tax invoice.",
  ];
}

/** The client's receipt for one payment: how much, what for, and what is left to pay. */
export function renderPaymentReceipt(input: PaymentReceiptInput): Promise<Buffer> {
  const { payment } = input;
  const amount = paise(payment.amountPaise, "Payment");
  const total = paise(input.totalPaise, "Total");
  const paidSoFar = paise(input.paidSoFarPaise, "Paid so far");
  if (amount <= 0 || paidSoFar < amount || paidSoFar > total)
    throw new RangeError(
      `Receipt amounts do not fit: paid ${amount}, paid so far ${paidSoFar}, total ${total}`,
    );
  const left = total - paidSoFar;
  return renderMoneyDocument({
    title: "Payment receipt",
    reference: input.receiptNumber,
    date: payment.paidAt,
    subtitle: `Receipt ${input.receiptNumber} · ${dayOf(payment.paidAt)}`,
    sections: [
      {
        heading: "Payment",
        rows: [
          { label: "Amount paid", value: formatPaise(amount), amount: true, bold: true },
          { label: "For", value: `${PURPOSES[payment.purpose]} for the booking below` },
          { label: "Paid on", value: momentOf(payment.paidAt) },
          { label: "Payment reference", value: payment.providerPaymentId },
        ],
      },
      { heading: "Booking", rows: bookingRows(input) },
      {
        heading: "Amounts",
        rows: [
          { label: "Agreed total", value: formatPaise(total), amount: true },
          { label: "Paid so far", value: formatPaise(paidSoFar), amount: true },
          {
            label: left === 0 ? "Left to pay: paid in full" : "Left to pay",
            value: formatPaise(left),
            amount: true,
            bold: true,
            ruled: true,
          },
        ],
      },
    ],
    footer: receiptFooter(input),
  });
}

/** The client's receipt for a refund, with when it usually arrives. */
export function renderRefundReceipt(input: RefundReceiptInput): Promise<Buffer> {
  const { refund } = input;
  const amount = paise(refund.amountPaise, "Refund");
  const paid = paise(input.paidPaise, "Paid");
  if (amount <= 0 || amount > paid)
    throw new RangeError(`Refund ${amount} does not fit what was paid, ${paid}`);
  return renderMoneyDocument({
    title: "Refund receipt",
    reference: input.receiptNumber,
    date: refund.refundedAt,
    subtitle: `Receipt ${input.receiptNumber} · ${dayOf(refund.refundedAt)}`,
    sections: [
      {
        heading: "Refund",
        rows: [
          { label: "Amount refunded", value: formatPaise(amount), amount: true, bold: true },
          { label: "Paid for the booking", value: formatPaise(paid), amount: true },
          { label: "Why", value: refund.reason },
          { label: "Refunded on", value: momentOf(refund.refundedAt) },
          { label: "Refund reference", value: refund.providerRefundId },
        ],
        notes: ["Refunds usually reach your account in 5–7 working days, by the way you paid."],
      },
      { heading: "Booking", rows: bookingRows(input) },
    ],
    footer: receiptFooter(input),
  });
}

/** The artist's statement for a booking: what came in, what was deducted, what is paid out. */
export function renderPayoutStatement(input: PayoutStatementInput): Promise<Buffer> {
  const { status, releaseAt, releasedAt } = input.heldOrReleased;
  const lineCount = input.lines.length;
  if (lineCount === 0) throw new RangeError("A payout statement needs its lines");
  for (const line of input.lines) paise(line.paise, line.label);
  const date = status === "released" ? releasedAt : releaseAt;
  if (!date)
    throw new RangeError(
      `A ${status} payout needs its ${status === "released" ? "releasedAt" : "releaseAt"}`,
    );
  const statusRow: Row =
    status === "released"
      ? { label: "Released", value: momentOf(date) }
      : { label: "Held until", value: momentOf(date) };
  return renderMoneyDocument({
    title: "Payout statement",
    reference: input.bookingId,
    date,
    subtitle: `Booking ${input.bookingId} · ${dayText(input.event.date)}`,
    sections: [
      {
        heading: "Artist",
        rows: [
          { label: "Artist", value: input.artistName },
          { label: "Legal name", value: input.legalName },
          { label: "Paid to", value: input.payoutDestination },
        ],
      },
      {
        heading: "Event",
        rows: [
          { label: "Event", value: input.event.eventType },
          { label: "Date", value: dayText(input.event.date) },
          { label: "Venue", value: input.event.venue },
        ],
      },
      {
        heading: "Money",
        rows: input.lines.map((line, i) => {
          const last = i === lineCount - 1;
          return {
            label: line.label,
            value: formatPaise(line.paise),
            amount: true,
            bold: last,
            ruled: last,
          };
        }),
      },
      {
        heading: "Payout",
        rows: [statusRow],
        notes:
          status === "held"
            ? ["Your payout is released 48 hours after the event unless a problem is reported."]
            : [],
      },
    ],
    footer: [
      "GigLedger's commission and the GST on it are invoiced to you separately.",
      "TDS, when withheld, is deposited against your PAN.",
    ],
  });
}

/** GigLedger's tax invoice to the artist for its commission, with GST on it. */
export function renderCommissionInvoice(input: CommissionInvoiceInput): Promise<Buffer> {
  const commission = paise(input.commissionPaise, "Commission");
  const gst = paise(input.gstPaise, "GST");
  // The invoice prints the rate: the amount must be that rate of the commission.
  if (commission <= 0 || gst !== shareOf(commission, input.gstBps))
    throw new RangeError(
      `GST ${gst} is not ${percent(input.gstBps)} of the commission ${commission}`,
    );
  const { seller, buyer } = input;
  const sellerRows: Row[] = [
    { label: "Name", value: seller.name },
    { label: "GSTIN", value: seller.gstin ?? "not registered (demo)" },
  ];
  if (seller.address) sellerRows.push({ label: "Address", value: seller.address });
  return renderMoneyDocument({
    title: "Tax invoice",
    reference: input.invoiceNumber,
    date: input.issuedAt,
    subtitle: `Invoice ${input.invoiceNumber} · ${dayOf(input.issuedAt)}`,
    sections: [
      {
        heading: "Invoice",
        rows: [
          { label: "Invoice number", value: input.invoiceNumber },
          { label: "Date of issue", value: dayOf(input.issuedAt) },
          { label: "Financial year", value: input.financialYear },
          { label: "Booking", value: input.bookingId },
        ],
      },
      { heading: "From", rows: sellerRows },
      {
        heading: "To",
        rows: [
          { label: "Legal name", value: buyer.legalName },
          { label: "Artist", value: buyer.artistName },
          { label: "PAN", value: buyer.panMasked },
        ],
      },
      {
        heading: "Service",
        rows: [
          { label: "Description", value: input.description },
          { label: "SAC", value: "998599 (Other support services)" },
          {
            label: `Commission at ${percent(input.commissionBps)}`,
            value: formatPaise(commission),
            amount: true,
          },
          { label: `GST at ${percent(input.gstBps)}`, value: formatPaise(gst), amount: true },
          {
            label: "Total",
            value: formatPaise(commission + gst),
            amount: true,
            bold: true,
            ruled: true,
          },
        ],
        notes: ["Deducted from your payout for this booking: nothing is left to pay."],
      },
    ],
    footer: [
      ...(seller.gstin
        ? []
        : ["Demo: GigLedger is not registered for GST, so this is not a valid tax invoice."]),
      `Issued by ${seller.name} for booking ${input.bookingId}.`,
    ],
  });
}
