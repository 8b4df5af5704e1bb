import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { addDays, formatWallClock, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import { formatPaise } from "~/lib/money-text";
import { createArtistProfile } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";
import { lookAt } from "./support/look-at";

/**
 * Money through the platform (docs/product.md, "Payments"; issue 41) in Chromium on the production
 * build, with the embedded provider: an artist sets up payouts on its form, a client requests, the
 * artist accepts ('Awaiting deposit'), the client pays the deposit on the provider's hosted page,
 * the booking is confirmed when the server's job runner applies the webhook, the client pays the
 * balance, the app's clock passes the event's end + 48 hours and the payout is released. Again
 * without JavaScript up to Confirmed; and a client's and an artist's cancellation with their refunds.
 *
 * The app's clock (/dev/clock) is one for the whole server and only moves forward: the tests of
 * this file run one after another, the one that moves it resets it however it ends, and each picks
 * its event date so that none depends on another having run first.
 */
test.describe.configure({ mode: "default", timeout: 240_000 });

const ZONE = "Asia/Kolkata";
const HOURLY_RATE = 8000;
const HOURS = 3;
const START = "19:00";

type Party = { context: BrowserContext; page: Page; name: string };

let ipCounter = 0;
async function personContext(browser: Browser, baseURL: string, js: boolean, state?: string) {
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
async function artistOf(browser: Browser, baseURL: string, js: boolean): Promise<Party> {
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

async function clientOf(browser: Browser, baseURL: string, js: boolean): Promise<Party> {
  const context = await personContext(browser, baseURL, js);
  const page = await context.newPage();
  const account = await signUpConfirmed(
    page,
    newAccount({ firstName: "Nikhil", lastName: "Bose" }),
  );
  return { context, page, name: `${account.firstName} ${account.lastName}` };
}

/** The payouts form at /settings/payouts, filled and sent as an artist would. */
async function setUpPayouts(artist: Page, legalName: string) {
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
async function requestBooking(client: Page, artistName: string, date: string, venue: string) {
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
const badge = (page: Page) => page.locator("#details-title + span");
const payments = (page: Page) => page.getByRole("region", { name: "Payments" });
/** A row of the Payments section's figures: its value, by its term. */
const figure = (page: Page, term: string) =>
  payments(page)
    .locator("dl > div")
    .filter({ has: page.locator("dt", { hasText: term }) })
    .locator("dd");

/** Reloads the booking page until `check` holds: the server's job runner applies events. */
async function reloadUntil(page: Page, bookingId: string, check: (page: Page) => Locator) {
  await expect(async () => {
    await page.goto(`/bookings/${bookingId}`);
    await expect(check(page)).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000, intervals: [250, 500, 1000] });
}

/** The artist accepts the request on its page; the booking waits for the deposit. */
async function accept(artist: Page, bookingId: string) {
  await artist.goto(`/bookings/${bookingId}`);
  await artist.getByRole("button", { name: "Accept Booking" }).click();
  await expect(badge(artist)).toHaveText("Awaiting deposit");
}

/** The agreed total on the booking page, in paise: "Total amount ₹24,000.00". */
async function totalPaiseOn(page: Page) {
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
async function payAtCheckout(
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

async function post(page: Page, path: string, data: unknown) {
  const origin = new URL(page.url()).origin;
  const res = await page.request.post(path, { data, headers: { Origin: origin } });
  expect(res.status(), `${path} ${JSON.stringify(data)}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** Runs the named job queues now, as /dev/clock's buttons do. */
async function runJobs(page: Page, ...names: string[]) {
  const { ran } = (await post(page, "/dev/jobs/run", { name: names.join(",") })) as {
    ran: { queue: string; errors: string[] }[];
  };
  expect(
    ran.flatMap((r) => r.errors),
    `jobs ${names.join(",")}`,
  ).toEqual([]);
}

/** The commission and GST come out of the artist's share: what is transferred of `paise`. */
function artistShareOf(paise: number, commissionBps: number) {
  const commission = Math.round((paise * commissionBps) / 10_000);
  const gst = Math.round((commission * 1800) / 10_000);
  return paise - commission - gst;
}

/**
 * The story up to Confirmed, with or without JavaScript: payouts set up on the form, the request,
 * the acceptance, the deposit paid at the hosted page, the webhook applied by the job runner.
 */
async function toConfirmed(
  browser: Browser,
  baseURL: string,
  js: boolean,
  eventDate: string,
  look: (page: Page, name: string) => Promise<void>,
) {
  const artist = await artistOf(browser, baseURL, js);
  await setUpPayouts(artist.page, "Kavya Iyer");
  await look(artist.page, "settings-payouts");
  const client = await clientOf(browser, baseURL, js);
  const bookingId = await requestBooking(client.page, artist.name, eventDate, "Music Academy");
  expect(bookingId).toMatch(/^[0-9a-f-]{36}$/);
  const totalPaise = await totalPaiseOn(client.page);
  expect(totalPaise, "the artist's rate times the hours").toBe(HOURLY_RATE * HOURS * 100);

  await accept(artist.page, bookingId);
  // The artist waits for the client's payment; the terms say how much the deposit is.
  await client.page.goto(`/bookings/${bookingId}`);
  await expect(badge(client.page)).toHaveText("Awaiting deposit");
  const depositLine = client.page.getByText(/^\d+% deposit when the booking is agreed/).first();
  const depositBps =
    Number(/^(\d+)%/.exec((await depositLine.textContent()) ?? "")?.[1] ?? Number.NaN) * 100;
  const depositPaise = Math.round((totalPaise * depositBps) / 10_000);
  expect(depositPaise).toBeGreaterThan(0);
  expect(depositPaise).toBeLessThan(totalPaise);
  const panel = payments(client.page);
  await expect(panel).toContainText(
    `Deposit of ${formatPaise(depositPaise)} due now to confirm the booking`,
  );
  await expect(panel).toContainText("The date is not held for you until the payment arrives.");
  await look(client.page, "booking-client-awaiting-deposit");
  await artist.page.goto(`/bookings/${bookingId}`);
  await expect(payments(artist.page)).toContainText(
    `Waiting for the client's payment of ${formatPaise(depositPaise)}`,
  );
  await expect(payments(artist.page).getByRole("button", { name: /^Pay/ })).toHaveCount(0);

  await payAtCheckout(
    client.page,
    bookingId,
    `Pay deposit ${formatPaise(depositPaise)}`,
    depositPaise,
    look,
  );
  if (js) await expect(client.page.getByText("Thank you: confirming your payment")).toBeVisible();
  await reloadUntil(client.page, bookingId, (p) => badge(p).filter({ hasText: /^Confirmed$/ }));
  await expect(figure(client.page, "Paid by the client")).toHaveText(formatPaise(depositPaise));
  await expect(payments(client.page)).toContainText(
    `Payment received · ${formatPaise(depositPaise)}`,
  );
  return { artist, client, bookingId, totalPaise, depositPaise };
}

test("paid through GigLedger with JavaScript: payouts, request, deposit, confirmed, balance, payout released 48 h after the event", async ({
  browser,
  baseURL,
}, info) => {
  const look = (page: Page, name: string) => lookAt(page, name, info);
  // Twelve days ahead: the deposit first, the balance due a week before the event.
  const eventDate = addDays(todayIn(ZONE), 12);
  const { artist, client, bookingId, totalPaise, depositPaise } = await toConfirmed(
    browser,
    baseURL ?? "",
    true,
    eventDate,
    look,
  );

  // The artist's share of the deposit is held until 48 hours after the event ends (once the
  // server's job runner has made the held transfer, a moment after the confirmation).
  await reloadUntil(artist.page, bookingId, (p) => figure(p, "Held for you"));
  await expect(badge(artist.page)).toHaveText("Confirmed");
  const commissionText = await payments(artist.page)
    .getByText(/GigLedger's commission of [\d.]+ % plus GST/)
    .textContent();
  const commissionBps =
    Number(/commission of ([\d.]+) %/.exec(commissionText ?? "")?.[1] ?? Number.NaN) * 100;
  expect(commissionBps).toBeGreaterThan(0);
  const eventEnd = new Date(
    zonedDateTimeToUtc(eventDate, START, ZONE).getTime() + HOURS * 3_600_000,
  );
  const releaseAt = new Date(eventEnd.getTime() + 48 * 3_600_000);
  await expect(figure(artist.page, "Held for you")).toHaveText(
    `${formatPaise(artistShareOf(depositPaise, commissionBps))} until ${formatWallClock(releaseAt, ZONE, { withZone: true })}`,
  );
  await expect(payments(artist.page)).toContainText(
    "Artist's share held until 48 hours after the event",
  );

  // ── The balance, paid early ───────────────────────────────────────────────────────────────
  const balancePaise = totalPaise - depositPaise;
  await expect(payments(client.page)).toContainText(
    `Balance of ${formatPaise(balancePaise)} due by`,
  );
  await look(client.page, "booking-client-confirmed");
  await payAtCheckout(
    client.page,
    bookingId,
    `Pay balance ${formatPaise(balancePaise)}`,
    balancePaise,
  );
  await expect(client.page.getByText("Thank you: confirming your payment")).toBeVisible();
  await reloadUntil(client.page, bookingId, (p) =>
    figure(p, "Paid by the client").filter({ hasText: formatPaise(totalPaise) }),
  );
  await expect(payments(client.page).getByRole("button", { name: /^Pay/ })).toHaveCount(0);
  await expect(badge(client.page)).toHaveText("Confirmed");
  const sharePaise =
    artistShareOf(depositPaise, commissionBps) + artistShareOf(balancePaise, commissionBps);
  await reloadUntil(artist.page, bookingId, (p) =>
    figure(p, "Held for you").filter({ hasText: formatPaise(sharePaise) }),
  );

  // ── The event passes by the app's clock ───────────────────────────────────────────────────
  try {
    // A minute before the release time the payout stays held.
    await post(artist.page, "/dev/clock", {
      set: new Date(releaseAt.getTime() - 60_000).toISOString(),
    });
    await runJobs(artist.page, "payments.release", "payments.commands");
    await artist.page.goto(`/bookings/${bookingId}`);
    await expect(figure(artist.page, "Held for you")).toContainText(formatPaise(sharePaise));
    await expect(figure(artist.page, "Released to you")).toHaveCount(0);

    await post(artist.page, "/dev/clock", { advance: "PT2M" });
    await runJobs(artist.page, "payments.release", "payments.commands");
    await reloadUntil(artist.page, bookingId, (p) => figure(p, "Released to you"));
    await expect(figure(artist.page, "Released to you")).toContainText(
      `${formatPaise(sharePaise)} on `,
    );
    await expect(figure(artist.page, "Held for you")).toHaveCount(0);
    await expect(payments(artist.page)).toContainText("Payout released to the artist");
    await look(artist.page, "booking-artist-released");
    await client.page.goto(`/bookings/${bookingId}`);
    await expect(figure(client.page, "Paid by the client")).toHaveText(formatPaise(totalPaise));
    await expect(payments(client.page)).toContainText("Payout released to the artist");
    await look(client.page, "booking-client-released");
  } finally {
    await post(artist.page, "/dev/clock", { reset: true });
  }
  await artist.context.close();
  await client.context.close();
});

test("paid through GigLedger without JavaScript: payouts, request, acceptance, deposit at the hosted page, confirmed", async ({
  browser,
  baseURL,
}) => {
  // Fifteen days ahead: a date of its own, and the deposit comes first.
  const eventDate = addDays(todayIn(ZONE), 15);
  const { artist, client, bookingId, totalPaise, depositPaise } = await toConfirmed(
    browser,
    baseURL ?? "",
    false,
    eventDate,
    async (page, name) => {
      // Without scripts, the widths only: the screenshots and axe are the JavaScript test's.
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    },
  );
  await expect(payments(client.page).getByRole("button", { name: /^Pay balance/ })).toHaveText(
    `Pay balance ${formatPaise(totalPaise - depositPaise)}`,
  );
  await artist.page.goto(`/bookings/${bookingId}`);
  await expect(badge(artist.page)).toHaveText("Confirmed");
  await expect(figure(artist.page, "Paid by the client")).toHaveText(formatPaise(depositPaise));
  await artist.context.close();
  await client.context.close();
});

/** The figures of "If you cancel now" beside the client's Cancel button. */
async function cancelNowFigures(client: Page) {
  const line = client.getByText(/^If you cancel now: you get back/);
  const text = (await line.textContent()) ?? "";
  const amounts = [...text.matchAll(/₹([\d,]+\.\d\d)/g)].map((m) =>
    Math.round(Number((m[1] ?? "").replaceAll(",", "")) * 100),
  );
  expect(amounts, text).toHaveLength(2);
  return { refundPaise: amounts[0] ?? -1, keptPaise: amounts[1] ?? -1 };
}

test("a client's cancellation after paying is refunded by the policy", async ({
  browser,
  baseURL,
}, info) => {
  // Flexible, five days ahead: no cooling-off (under 7 days' notice), the balance is already due so
  // the whole total is paid at once, and a cancellation 2 to 7 days before charges 25 %.
  const artist = await artistOf(browser, baseURL ?? "", true);
  await artist.page.goto("/artist-profile/edit");
  const terms = artist.page.getByRole("group", { name: "Booking terms" });
  await terms.getByRole("radio", { name: /^Flexible/ }).check();
  await artist.page.getByRole("button", { name: "Save Profile" }).click();
  await expect(artist.page.getByText("Profile Updated")).toBeVisible();
  await setUpPayouts(artist.page, "Kavya Iyer");
  const client = await clientOf(browser, baseURL ?? "", true);
  const bookingId = await requestBooking(
    client.page,
    artist.name,
    addDays(todayIn(ZONE), 5),
    "Kalakshetra",
  );
  const totalPaise = await totalPaiseOn(client.page);
  await accept(artist.page, bookingId);

  await client.page.goto(`/bookings/${bookingId}`);
  await expect(payments(client.page)).toContainText(
    `${formatPaise(totalPaise)} due now: the event is close, so the whole amount confirms it`,
  );
  await payAtCheckout(client.page, bookingId, `Pay in full ${formatPaise(totalPaise)}`, totalPaise);
  await reloadUntil(client.page, bookingId, (p) => badge(p).filter({ hasText: /^Confirmed$/ }));
  await expect(figure(client.page, "Paid by the client")).toHaveText(formatPaise(totalPaise));

  // "If you cancel now": the Flexible policy's 25 % with 2 to 7 days' notice, of what was paid.
  const cancelNow = client.page.locator("div", {
    has: client.page.getByText("If you cancel now", { exact: true }),
  });
  await expect(cancelNow.last()).toContainText("Under the Flexible policy");
  const chargePaise = Math.round((totalPaise * 2500) / 10_000);
  const { refundPaise, keptPaise } = await cancelNowFigures(client.page);
  expect({ refundPaise, keptPaise }).toEqual({
    refundPaise: totalPaise - chargePaise,
    keptPaise: chargePaise,
  });
  await expect(cancelNow.last()).toContainText(
    `you get back ${formatPaise(refundPaise)}; ${artist.name} keeps ${formatPaise(keptPaise)}`,
  );

  client.page.once("dialog", (dialog) => dialog.accept());
  await client.page.getByRole("button", { name: "Cancel booking" }).click();
  await expect(client.page.getByText("Booking Cancelled").first()).toBeVisible();
  await expect(badge(client.page)).toHaveText("Cancelled");
  await reloadUntil(client.page, bookingId, (p) =>
    figure(p, "Refunded").filter({
      hasText: new RegExp(`^${escapeRe(formatPaise(refundPaise))}$`),
    }),
  );
  await expect(payments(client.page)).toContainText(
    `Refund decided by the cancellation policy · ${formatPaise(refundPaise)}`,
  );
  await expect(payments(client.page)).toContainText(`Refund sent · ${formatPaise(refundPaise)}`);
  await lookAt(client.page, "booking-client-cancelled-refunded", info);
  // The artist's page: the client's money back, the rest theirs.
  await artist.page.goto(`/bookings/${bookingId}`);
  await expect(figure(artist.page, "Refunded")).toHaveText(formatPaise(refundPaise));
  await artist.context.close();
  await client.context.close();
});

test("an artist's cancellation after the deposit refunds everything paid", async ({
  browser,
  baseURL,
}, info) => {
  const artist = await artistOf(browser, baseURL ?? "", true);
  await setUpPayouts(artist.page, "Kavya Iyer");
  const client = await clientOf(browser, baseURL ?? "", true);
  const bookingId = await requestBooking(
    client.page,
    artist.name,
    addDays(todayIn(ZONE), 20),
    "Narada Gana Sabha",
  );
  await accept(artist.page, bookingId);
  await client.page.goto(`/bookings/${bookingId}`);
  const pay = payments(client.page).getByRole("button", { name: /^Pay deposit ₹/ });
  const depositText = ((await pay.textContent()) ?? "").replace("Pay deposit ", "");
  const depositPaise = Math.round(Number(depositText.replace(/[₹,]/g, "")) * 100);
  await payAtCheckout(client.page, bookingId, `Pay deposit ${depositText}`, depositPaise);
  await reloadUntil(client.page, bookingId, (p) => badge(p).filter({ hasText: /^Confirmed$/ }));

  await artist.page.goto(`/bookings/${bookingId}`);
  await artist.page.locator("summary", { hasText: "Cancel booking" }).click();
  await artist.page.getByLabel("Reason").fill("I have lost my voice and cannot sing that night.");
  await artist.page.getByRole("button", { name: "Cancel Booking" }).click();
  await expect(artist.page.getByText("Booking Cancelled").first()).toBeVisible();
  await expect(badge(artist.page)).toHaveText("Cancelled");

  await reloadUntil(client.page, bookingId, (p) =>
    figure(p, "Refunded").filter({
      hasText: new RegExp(`^${escapeRe(formatPaise(depositPaise))}$`),
    }),
  );
  await expect(figure(client.page, "Paid by the client")).toHaveText(formatPaise(depositPaise));
  await expect(client.page.getByText(`${artist.name} cancelled this booking.`)).toBeVisible();
  await expect(payments(client.page)).toContainText(`Refund sent · ${formatPaise(depositPaise)}`);
  await expect(figure(client.page, "Held for the artist")).toHaveCount(0);
  await lookAt(client.page, "booking-client-artist-cancelled", info);
  await artist.context.close();
  await client.context.close();
});

function escapeRe(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
