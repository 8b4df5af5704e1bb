import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Download, Page, TestInfo } from "@playwright/test";
import { canonicalize } from "json-canonicalize";
import { addDays, todayIn } from "~/lib/dates";
import { createArtistProfile } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";
import { lookAt } from "./support/look-at";

/**
 * Quotes and signed agreements (docs/product.md, "Quotes and agreements"), in Chromium, with
 * JavaScript and again without it (every step is a plain form post then): a client requests, the
 * artist quotes, the client asks for changes, the artist revises, the client accepts; the agreement
 * page, agreement.json and the PDF all carry one hash, checked here with json-canonicalize and
 * node:crypto, poppler's pdftotext and pdfdetach, independently of the app's own code. And the
 * quote that changes while the client reads it: their "Accept Quote" agrees nothing.
 */
test.describe.configure({ timeout: 240_000 });

const sha256Hex = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

type Party = { context: BrowserContext; page: Page; name: string };

let ipCounter = 0;
/** A person in a context of their own: their own client address, with or without JavaScript. */
async function personContext(browser: Browser, baseURL: string, js: boolean, state?: string) {
  ipCounter++;
  return browser.newContext({
    baseURL,
    javaScriptEnabled: js,
    storageState: state ? JSON.parse(state) : undefined,
    extraHTTPHeaders: {
      "X-Forwarded-For": `198.51.100.${(ipCounter * 7 + (js ? 100 : 150)) % 250}`,
    },
  });
}

/** The artist: an account and a profile (set up with JavaScript), then browsing with `js`. */
async function artistOf(browser: Browser, baseURL: string, js: boolean): Promise<Party> {
  const setup = await personContext(browser, baseURL, true);
  const setupPage = await setup.newPage();
  await signUpConfirmed(setupPage, newAccount({ firstName: "Meera", lastName: "Sen" }));
  const name = `Meera Sen Quartet ${Date.now().toString(36)}${js ? "j" : "n"}`;
  // ₹40,000 an hour: a three-hour request is ₹1,20,000.00, in lakhs.
  await createArtistProfile(setupPage, name, { "Hourly Rate (₹)": "40000", Location: "Kolkata" });
  const state = JSON.stringify(await setup.storageState());
  await setup.close();
  const context = await personContext(browser, baseURL, js, state);
  return { context, page: await context.newPage(), name };
}

async function clientOf(browser: Browser, baseURL: string, js: boolean): Promise<Party> {
  const context = await personContext(browser, baseURL, js);
  const page = await context.newPage();
  const account = await signUpConfirmed(page, newAccount({ firstName: "Rohan", lastName: "Das" }));
  return { context, page, name: `${account.firstName} ${account.lastName}` };
}

/** The client's request on the booking page's form (a plain form post); returns the booking's id. */
async function requestBooking(client: Page, artistName: string, date: string, venue: string) {
  const slug = artistName.toLowerCase().replaceAll(" ", "-");
  await client.goto(`/bookings?artist=${slug}`);
  await client.getByLabel("Event Date").fill(date);
  await client.getByLabel("Duration (hours)").fill("3");
  await client.getByLabel("Venue").fill(venue);
  await client.getByLabel("Event Type").selectOption("Wedding");
  await client.getByLabel("Additional Details (optional)").fill("Sangeet night, 200 guests.");
  await client.getByRole("button", { name: "Send Booking Request" }).click();
  await client.waitForURL(/\/bookings\/[0-9a-f-]{36}$/);
  return new URL(client.url()).pathname.split("/").pop() ?? "";
}

/** The composer's disclosure (its summary names it), opened. */
async function openComposer(page: Page, title: string) {
  const form = page.locator("form").filter({ has: page.locator('input[name="lineLabel0"]') });
  // With JavaScript the disclosure a quote was sent from stays open on the same page.
  if (!(await form.isVisible())) await page.locator("summary", { hasText: title }).click();
  await expect(form).toBeVisible();
  return form;
}

/** Fills the composer's priced lines with `lines`, emptying every other row. */
async function fillLines(form: ReturnType<Page["locator"]>, lines: [string, string][]) {
  const rows = await form.locator('input[name^="lineLabel"]').count();
  for (let i = 0; i < rows; i++) {
    const [label, amount] = lines[i] ?? ["", ""];
    await form.getByLabel(`Line ${i + 1}: what`).fill(label);
    await form.getByLabel(`Line ${i + 1}: amount in rupees`).fill(amount);
  }
}

async function sendQuote(
  artist: Page,
  bookingId: string,
  title: string,
  lines: [string, string][],
) {
  await artist.goto(`/bookings/${bookingId}`);
  const form = await openComposer(artist, title);
  await fillLines(form, lines);
  await form.getByLabel("Deposit").selectOption("30");
  await form.getByLabel("Cancellation policy").selectOption("strict");
  await form.getByRole("button", { name: title }).click();
}

/** A download's bytes, from clicking the link named `name`. */
async function download(page: Page, name: string): Promise<{ bytes: Buffer; file: Download }> {
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name }).click(),
  ]);
  const saved = await file.path();
  return { bytes: readFileSync(saved), file };
}

async function story(browser: Browser, baseURL: string, js: boolean, info: TestInfo) {
  const look = (page: Page, name: string) =>
    js ? lookAt(page, name, info) : Promise.resolve(undefined);
  const artist = await artistOf(browser, baseURL, js);
  const client = await clientOf(browser, baseURL, js);
  const eventDate = addDays(todayIn("Asia/Kolkata"), 40);

  // ── Version 1: the request, on the artist's published terms ───────────────────────────────
  const bookingId = await requestBooking(client.page, artist.name, eventDate, "Taj Ballroom");
  expect(bookingId).toMatch(/^[0-9a-f-]{36}$/);

  // ── Version 2: the artist's quote, two lines, 30 % deposit, Strict ──────────────────────────
  await sendQuote(artist.page, bookingId, "Send Quote", [
    ["2 sets of 45 minutes", "30000"],
    ["Sound system", "5000.50"],
  ]);
  const artistQuote = artist.page.getByRole("heading", { name: "Your quote · version 2" });
  await expect(artistQuote).toBeVisible();
  await expect(artist.page.getByText("₹35,000.50").first()).toBeVisible();
  if (js) await expect(artist.page.getByText("Quote Sent")).toBeVisible();
  // The artist's view with the composer open, over the open quote.
  await openComposer(artist.page, "Revise Quote");
  await look(artist.page, "booking-artist-composer");

  // ── The client reads it and asks for changes ────────────────────────────────────────────────
  await client.page.goto(`/bookings/${bookingId}`);
  const quote = client.page.locator("div", {
    has: client.page.getByRole("heading", { name: `${artist.name}'s quote · version 2` }),
  });
  await expect(quote.last()).toBeVisible();
  const quoteText = (await quote.last().textContent()) ?? "";
  for (const words of [
    "2 sets of 45 minutes",
    "₹30,000.00",
    "Sound system",
    "₹5,000.50",
    "₹35,000.50",
    "30% deposit when the booking is agreed (₹10,500.15)",
    "Strict policy",
  ]) {
    expect(quoteText, words).toContain(words);
  }
  await look(client.page, "booking-client-quote");
  await client.page.locator("summary", { hasText: "Ask for Changes" }).click();
  await client.page.getByLabel("What would you like changed?").fill("Could you do ₹32,000?");
  await client.page.getByLabel("Total you have in mind (optional, ₹)").fill("32000");
  await client.page.getByRole("button", { name: `Send to ${artist.name}` }).click();
  const versions = client.page.getByRole("region", { name: "Versions" });
  await expect(versions.getByText(`${client.name} asked for changes`)).toBeVisible();
  await expect(versions.getByText("Total in mind: ₹32,000.00")).toBeVisible();

  // ── Version 3: the artist revises ───────────────────────────────────────────────────────────
  await artist.page.goto(`/bookings/${bookingId}`);
  await expect(artist.page.getByText("Could you do ₹32,000?")).toBeVisible();
  await sendQuote(artist.page, bookingId, "Revise Quote", [
    ["2 sets of 45 minutes", "27,000"],
    ["Sound system", "5000.50"],
  ]);
  await expect(artist.page.getByRole("heading", { name: "Your quote · version 3" })).toBeVisible();

  // ── The timeline: three versions and what changed ───────────────────────────────────────────
  await client.page.goto(`/bookings/${bookingId}`);
  const timeline = client.page.getByRole("region", { name: "Versions" });
  const items = timeline.getByRole("listitem").filter({ hasText: /^Version \d:/ });
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText(`Version 3: ${artist.name}'s quote · ₹32,000.50 · Open`);
  await expect(items.nth(0)).toContainText("Total ₹35,000.50 → ₹32,000.50");
  await expect(items.nth(1)).toContainText(
    `Version 2: ${artist.name}'s quote · ₹35,000.50 · Replaced by a later version`,
  );
  await expect(items.nth(1)).toContainText("Total ₹1,20,000.00 → ₹35,000.50");
  await expect(items.nth(1)).toContainText("Cancellation policy");
  await expect(items.nth(1)).toContainText("→ Strict");
  await expect(items.nth(2)).toContainText(`Version 1: ${client.name}'s request · ₹1,20,000.00`);

  // ── The client accepts: the agreement ───────────────────────────────────────────────────────
  await client.page.getByRole("button", { name: "Accept Quote" }).click();
  await client.page.waitForURL(`**/bookings/${bookingId}/agreement`);
  const hash = ((await client.page.getByTestId("agreement-hash").textContent()) ?? "").trim();
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  const agreementText = (await client.page.locator("main").textContent()) ?? "";
  for (const words of [artist.name, client.name, "₹32,000.50", "Strict", "Taj Ballroom"]) {
    expect(agreementText, words).toContain(words);
  }
  await look(client.page, "agreement");

  // agreement.json: canonical JSON whose signature is the SHA-256 of the canonical agreement.
  const json = await download(client.page, "Download agreement.json");
  const text = json.bytes.toString("utf8");
  const signed = JSON.parse(text) as { agreement: unknown; signature: { sha256: string } };
  expect(canonicalize(signed)).toBe(text);
  expect(sha256Hex(canonicalize(signed.agreement))).toBe(hash);
  expect(signed.signature.sha256).toBe(hash);
  // The same bytes over HTTP with the page's cookies, and for the artist too.
  const fetched = await client.page.request.get(`/bookings/${bookingId}/agreement.json`);
  expect(Buffer.from(await fetched.body()).equals(json.bytes)).toBe(true);
  const artistCopy = await artist.page.request.get(`/bookings/${bookingId}/agreement.json`);
  expect(Buffer.from(await artistCopy.body()).equals(json.bytes)).toBe(true);

  // The PDF: its text carries the hash, the parties, the total and the policy; agreement.json
  // inside it is the downloaded file, byte for byte.
  const pdf = await download(client.page, "Download PDF");
  expect(pdf.bytes.subarray(0, 5).toString()).toBe("%PDF-");
  const dir = mkdtempSync(path.join(tmpdir(), "gl-agreement-"));
  try {
    const pdfPath = path.join(dir, "agreement.pdf");
    await pdf.file.saveAs(pdfPath);
    const pdfText = execFileSync("pdftotext", ["-layout", pdfPath, "-"], { encoding: "utf8" });
    expect(pdfText.replace(/\s+/g, ""), "the hash in the PDF's text").toContain(hash);
    for (const words of [artist.name, client.name, "32,000.50", "Strict"]) {
      expect(pdfText, words).toContain(words);
    }
    expect(pdfText, "the rupee sign").toContain("₹32,000.50");
    const out = path.join(dir, "attached");
    execFileSync("mkdir", ["-p", out]);
    execFileSync("pdfdetach", ["-saveall", "-o", out, pdfPath]);
    const attached = readdirSync(out);
    expect(attached).toContain("agreement.json");
    const inside = readFileSync(path.join(out, "agreement.json"));
    expect(inside.equals(json.bytes), "agreement.json in the PDF is the downloaded one").toBe(true);
    expect(sha256Hex(canonicalize(JSON.parse(inside.toString("utf8")).agreement))).toBe(hash);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // ── The agreed booking: "If you cancel now" for the client ──────────────────────────────────
  await client.page.goto(`/bookings/${bookingId}`);
  const cancelNow = client.page.locator("div", {
    has: client.page.getByText("If you cancel now", { exact: true }),
  });
  await expect(cancelNow.last()).toBeVisible();
  // Agreed a moment ago: within the cooling-off, or else under the Strict policy.
  await expect(cancelNow.last()).toContainText(/24-hour cooling-off|Strict policy/);
  await expect(client.page.getByText(`SHA-256 ${hash}`)).toBeVisible();
  await expect(client.page.getByRole("button", { name: "Accept Quote" })).toHaveCount(0);
  await look(client.page, "booking-client-agreed");

  // ── The stale quote: the artist revises while the client reads the old version ────────────
  const otherId = await requestBooking(
    client.page,
    artist.name,
    addDays(eventDate, 7),
    "Park Street Hall",
  );
  await sendQuote(artist.page, otherId, "Send Quote", [["Evening set", "20000"]]);
  await expect(artist.page.getByRole("heading", { name: "Your quote · version 2" })).toBeVisible();
  await client.page.goto(`/bookings/${otherId}`);
  await expect(client.page.getByText("₹20,000.00").first()).toBeVisible();
  await sendQuote(artist.page, otherId, "Revise Quote", [["Evening set", "24000"]]);
  await expect(artist.page.getByRole("heading", { name: "Your quote · version 3" })).toBeVisible();
  await client.page.getByRole("button", { name: "Accept Quote" }).click();
  await expect(
    client.page.getByText("The quote changed while you were reading it.").first(),
  ).toBeVisible();
  expect(new URL(client.page.url()).pathname).not.toContain("/agreement");
  const none = await client.page.request.get(`/bookings/${otherId}/agreement.json`);
  expect(none.status(), "nothing was agreed").toBe(404);
  await client.page.goto(`/bookings/${otherId}`);
  await expect(
    client.page.getByRole("heading", { name: `${artist.name}'s quote · version 3` }),
  ).toBeVisible();
  await expect(client.page.getByText("Agreed and signed")).toHaveCount(0);

  await artist.context.close();
  await client.context.close();
}

test("quote, changes, revision, agreement, its JSON and PDF: with JavaScript", async ({
  browser,
  baseURL,
}, info) => {
  await story(browser, baseURL ?? "", true, info);
});

test("quote, changes, revision, agreement, its JSON and PDF: without JavaScript", async ({
  browser,
  baseURL,
}, info) => {
  await story(browser, baseURL ?? "", false, info);
});
