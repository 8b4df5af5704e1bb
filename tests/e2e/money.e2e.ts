import type { Browser, Page } from "@playwright/test";
import { addDays, formatWallClock, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import { formatPaise } from "~/lib/money-text";
import { expect, test } from "./support/fixtures";
import { lookAt, lookAtWidths } from "./support/look-at";
import {
  accept,
  artistOf,
  badge,
  clientOf,
  figure,
  HOURLY_RATE,
  HOURS,
  payAtCheckout,
  payments,
  post,
  reloadUntil,
  requestBooking,
  runJobs,
  START,
  setUpPayouts,
  totalPaiseOn,
  ZONE,
} from "./support/money";

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
    // Without scripts, the widths only: the screenshots and axe are the JavaScript test's.
    lookAtWidths,
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
