import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateSecretKeyMultibase } from "~/lib/ed25519-key.server";
import { agreementFixture, offerFixture } from "./agreement-fixture.test-support";
import { renderAgreementPdf, scriptRuns } from "./agreement-pdf.server";
import { sealAgreement } from "./agreement-seal.server";

// Reads the PDF back with poppler (Debian poppler-utils, installed by .ci/run). Without it these
// tests fail rather than skip: a PDF nobody read back proves nothing.
function poppler(tool: "pdftotext" | "pdfdetach", args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: "utf8" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new Error(`${tool} is missing: install poppler-utils (apt-get install poppler-utils)`);
    throw error;
  }
}

const sealed = sealAgreement(agreementFixture(), {
  appUrl: new URL("http://localhost:5173"),
  credentialSigningKey: generateSecretKeyMultibase(),
});

let dir = "";
let pdf: Buffer;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "agreement-pdf-"));
  pdf = await renderAgreementPdf(sealed.json);
  writeFileSync(path.join(dir, "agreement.pdf"), pdf);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("renderAgreementPdf", () => {
  test("the same agreement.json gives the same bytes", async () => {
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const again = await renderAgreementPdf(sealed.json);
    expect(again.equals(pdf)).toBe(true);
  });

  test("the text reads as the agreement: hash, money, Devanagari names, policy", () => {
    const text = poppler("pdftotext", ["-enc", "UTF-8", path.join(dir, "agreement.pdf"), "-"]);
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("Booking agreement");
    expect(flat).toContain(sealed.sha256);
    expect(flat).toContain("₹1,25,000.00");
    expect(flat).toContain("₹37,500.00");
    expect(flat).toContain("विक्रम शर्मा");
    expect(flat).toContain("मुंबई हॉल");
    expect(flat).toContain("Sunday, 14 February 2027");
    expect(flat).toContain("Cancellation: Moderate (version 1)");
    expect(flat).toContain("60 days or more before the start");
    expect(flat).toContain("Less than 48 hours before the start");
    expect(flat).toContain("If the artist cancels, everything paid is returned.");
    expect(flat).toContain("Paid directly between the client and the artist");
    expect(flat).toContain("http://localhost:5173/verify");
    expect(flat).toContain("did:web:localhost%3A5173");
  });

  test("agreement.json comes back out of the PDF byte for byte", () => {
    const out = path.join(dir, "out");
    mkdirSync(out);
    expect(poppler("pdfdetach", ["-list", path.join(dir, "agreement.pdf")])).toContain(
      "agreement.json",
    );
    poppler("pdfdetach", ["-saveall", "-o", out, path.join(dir, "agreement.pdf")]);
    const recovered = readFileSync(path.join(out, "agreement.json"));
    expect(recovered.equals(Buffer.from(sealed.json, "utf8"))).toBe(true);
  });

  test("a replacing agreement names the hash it replaces; an open start time says so", async () => {
    const previous = "a".repeat(64);
    const offer = offerFixture();
    const agreement = agreementFixture({
      offer: { ...offer, event: { ...offer.event, startTime: null } },
      supersedes: previous,
    });
    const { json } = sealAgreement(agreement, {
      appUrl: new URL("http://localhost:5173"),
      credentialSigningKey: generateSecretKeyMultibase(),
    });
    const file = path.join(dir, "replacing.pdf");
    writeFileSync(file, await renderAgreementPdf(json));
    const text = poppler("pdftotext", ["-enc", "UTF-8", file, "-"]).replace(/\s+/g, " ");
    expect(text).toContain(`replaces the agreement with hash ${previous}`);
    expect(text).toContain("Start time to be agreed");
  });
});

describe("scriptRuns", () => {
  test("Devanagari, ₹ and Latin go to their own faces; spaces and commas stay Latin", () => {
    expect(scriptRuns("मुंबई हॉल, ₹1,25,000.00")).toEqual([
      { script: "devanagari", text: "मुंबई" },
      { script: "latin", text: " " },
      { script: "devanagari", text: "हॉल" },
      { script: "latin", text: ", " },
      { script: "latinExt", text: "₹" },
      { script: "latin", text: "1,25,000.00" },
    ]);
  });
});
