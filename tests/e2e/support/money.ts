import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { formatPaise } from "~/lib/money-text";
import { createArtistProfile } from "./artist-helpers";
import { expect, newAccount, signUpConfirmed } from "./fixtures";

// People, forms and pages of money through the platform (docs/product.md, "Payments"), as the
// money and problem end-to-end tests drive them in Chromium.

export const ZONE = "Asia/Kolkata";
export const HOURLY_RATE = 8000;
export const HOURS = 3;
export const START = "19:00";

export type Party = { context: BrowserContext; page: Page; name: string };

let ipCounter = 0;
export async function personContext(
  browser: Browser,
  baseURL: string,
  js: boolean,
  state?: string,
) {
  ipCounter++;
  return browser.newContext({
    baseURL,
    javaScriptEnabled: js,
    // People in India: the artist's profile takes its time zone from the browser's.
    timezoneId: ZONE,
    storageState: state ? JSON.parse(state) : undefined,
    extraHTTPHeaders: {
      "X-Forwarded-For": `198.51.100.${(ipCounter * 11 + (js ? 20 : 130)) % 250}, 203.0.113.${ipCounter % 250}`,
    },
  });
}

/** An artist with a profile (made with JavaScript), then browsing with `js`; no payouts yet. */
export async function artistOf(browser: Browser, baseURL: string, js: boolean): Promise<Party> {
  const setup = await personContext(browser, baseURL, true);
  const setupPage = await setup.newPage();
  await signUpConfirmed(setupPage, newAccount({ firstName: "Kavya", lastName: "Iyer" }));
  const name = `Kavya Iyer Trio ${Date.now().toString(36)}${js ? "j" : "n"}`;
  await createArtistProfile(setupPage, name, {
    "Hourly Rate (₹)": String(HOURLY_RATE),
    Location: "Chennai",
  });
  const state = JSON.stringify(await setup.storageState());
  await setup.close();
  const context = await personContext(browser, baseURL, js, state);
  return { context, page: await context.newPage(), name };
}

export async function clientOf(browser: Browser, baseURL: string, js: boolean): Promise<Party> {
  const context = await personContext(browser, baseURL, js);
  const page = await context.newPage();
  const account = await signUpConfirmed(
    page,
    newAccount({ firstName: "Nikhil", lastName: "Bose" }),
  );
  return { context, page, name: `${account.firstName} ${account.lastName}` };
}

/** The payouts form at /settings/payouts, filled and sent as an artist would. */
export async function setUpPayouts(artist: Page, legalName: string) {
  await artist.goto("/settings/payouts");
  await expect(artist.getByRole("heading", { name: "Payouts", level: 1 })).toBeVisible();
  const form = artist.locator("form").filter({ has: artist.getByLabel("PAN", { exact: true }) });
  await form.getByLabel("Legal name (as on your PAN card)").fill(legalName);
  await form.getByLabel("PAN", { exact: true }).fill("ABCDE1234F");
  await form.getByRole("radio", { name: "UPI address" }).check();
  await form.getByLabel("UPI address (if paid by UPI)").fill("kavya@okhdfcbank");
  await form.getByRole("button", { name: "Set up payouts" }).click();
  const paidTo = artist.getByRole("region", { name: "Paid to" });
  await expect(paidTo).toBeVisible();
  await expect(paidTo).toContainText(legalName);
  await expect(paidTo).toContainText("kavya@okhdfcbank");
  // Only a masked PAN is kept and shown.
  await expect(paidTo).not.toContainText("ABCDE1234F");
  await expect(artist.getByRole("button", { name: "Save payout details" })).toBeVisible();
}

/** The client's request on the request page's form (a plain form post); returns the booking id. */
export async function requestBooking(
  client: Page,
  artistName: string,
  date: string,
  venue: string,
) {
  const slug = artistName.toLowerCase().replaceAll(" ", "-");
  await client.goto(`/bookings?artist=${slug}`);
  await client.getByLabel("Event Date").fill(date);
  await client.getByLabel(/^Start Time/).fill(START);
  await client.getByLabel("Duration (hours)").fill(String(HOURS));
  await client.getByLabel("Venue").fill(venue);
  await client.getByLabel("Event Type").selectOption("Wedding");
  await client.getByRole("button", { name: "Send Booking Request" }).click();
  await client.waitForURL(/\/bookings\/[0-9a-f-]{36}$/);
  return new URL(client.url()).pathname.split("/").pop() ?? "";
}

/** The status badge beside the page's heading. */
export const badge = (page: Page) => page.locator("#details-title + span");
export const payments = (page: Page) => page.getByRole("region", { name: "Payments" });
/** A row of the Payments section's figures: its value, by its term. */
export const figure = (page: Page, term: string) =>
  payments(page)
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: term }) })
    .locator("dd");

/** Reloads the booking page until `check` holds: the server's job runner applies events. */
export async function reloadUntil(page: Page, bookingId: string, check: (page: Page) => Locator) {
  await expect(async () => {
    await page.goto(`/bookings/${bookingId}`);
    await expect(check(page)).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000, intervals: [250, 500, 1000] });
}

/** The artist accepts the request on its page; the booking waits for the deposit. */
export async function accept(artist: Page, bookingId: string) {
  await artist.goto(`/bookings/${bookingId}`);
  await artist.getByRole("button", { name: "Accept Booking" }).click();
  await expect(badge(artist)).toHaveText("Awaiting deposit");
}

/** The agreed total on the booking page, in paise: "Total amount ₹24,000.00". */
export async function totalPaiseOn(page: Page) {
  const text = await page
    .locator("div", { has: page.locator("dt", { hasText: "Total amount" }) })
    .last()
    .locator("dd")
    .textContent();
  const rupees = Number((text ?? "").replace(/[₹,\s]/g, ""));
  expect(Number.isFinite(rupees) && rupees > 0, `total amount "${text}"`).toBe(true);
  return Math.round(rupees * 100);
}

/**
 * Clicks the Pay button named `button` on the booking page, pays at the provider's hosted page
 * (its axe and widths checked when `look`), and comes back to the booking page.
 */
export async function payAtCheckout(
  client: Page,
  bookingId: string,
  button: string,
  amountPaise: number,
  look?: (page: Page, name: string) => Promise<void>,
) {
  await payments(client).getByRole("button", { name: button }).click();
  await client.waitForURL(/\/dev\/psp\/pay\/plink_\w+$/);
  await expect(client.getByText(`Amount: ${formatPaise(amountPaise)}`)).toBeVisible();
  await expect(client.getByText("Merchant: GigLedger")).toBeVisible();
  if (look) await look(client, "checkout");
  await client.getByRole("button", { name: "Pay with UPI (succeeds)" }).click();
  await client.waitForURL(new RegExp(`/bookings/${bookingId}$`));
}

export async function post(page: Page, path: string, data: unknown) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post(path, { data, headers: { Origin: origin } });
  expect(res.status(), `${path} ${JSON.stringify(data)}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** Runs the named job queues now, as /dev/clock's buttons do. */
export async function runJobs(page: Page, ...names: string[]) {
  const { ran } = (await post(page, "/dev/jobs/run", { name: names.join(",") })) as {
    ran: { queue: string; errors: string[] }[];
  };
  expect(
    ran.flatMap((r) => r.errors),
    `jobs ${names.join(",")}`,
  ).toEqual([]);
}
