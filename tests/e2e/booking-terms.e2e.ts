import { addDays, todayIn } from "~/lib/dates";
import { createArtistProfile } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test, whenHydrated } from "./support/fixtures";
import { lookAt } from "./support/look-at";

/**
 * An artist publishes their booking terms on the profile form; a visitor reads them on the profile
 * and again on the request form, and the request goes out on them (docs/product.md, "Bookings").
 */
test("terms chosen on the profile form are on the profile and the request form, and a request is sent on them", async ({
  browser,
  page: artistPage,
}, info) => {
  test.setTimeout(120_000);
  await signUpConfirmed(artistPage, newAccount({ firstName: "Tara" }));
  const name = `Tara Terms ${Date.now().toString(36)}`;
  await createArtistProfile(artistPage, name);

  await artistPage.goto("/artist-profile/edit");
  const terms = artistPage.getByRole("group", { name: "Booking terms" });
  await expect(terms.getByLabel("Deposit")).toHaveValue("3000");
  await expect(terms.getByLabel("Balance due")).toHaveValue("7");
  await expect(terms.getByRole("radio", { name: /^Moderate/ })).toBeChecked();
  await terms.getByLabel("Deposit").selectOption({ label: "50%" });
  await terms.getByLabel("Balance due").selectOption({ label: "14 days before" });
  await terms.getByRole("radio", { name: /^Strict/ }).check();
  await terms.getByText("How each policy works").click();
  await expect(terms.getByText("With every policy")).toBeVisible();
  await lookAt(artistPage, "edit-terms", info);
  await artistPage.getByRole("button", { name: "Save Profile" }).click();
  await expect(artistPage.getByText("Profile Updated")).toBeVisible();

  const visitor = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.91, 203.0.113.91" },
  });
  const page = await visitor.newPage();
  await signUpConfirmed(page, newAccount({ firstName: "Omar" }));
  const slug = name.toLowerCase().replaceAll(" ", "-");
  await page.goto(`/artist/${slug}`);
  const card = page.getByRole("region", { name: "Booking terms" });
  await expect(card.getByText("50% deposit when the booking is agreed")).toBeVisible();
  await expect(card.getByText("Balance due 14 days before the event")).toBeVisible();
  await expect(card.getByText("If the artist cancels: everything paid is returned")).toBeVisible();
  await expect(card.getByText(/^Cancelled within 24 hours of agreeing/)).toBeVisible();
  const table = card.getByText("14 days to 30 days before: the client pays the full total");
  await expect(table).toBeHidden();
  await card.getByText("Cancellation policy: Strict").click();
  await expect(table).toBeVisible();
  await lookAt(page, "profile-terms", info);

  await whenHydrated(page);
  await page.getByRole("link", { name: "Book Performance" }).click();
  const dialog = page.getByRole("dialog", { name: `Book ${name}` });
  await expect(dialog).toBeVisible();
  const box = dialog.getByRole("region", { name: "Booking terms" });
  await expect(
    box.getByText("By sending this request you offer to book on these terms."),
  ).toBeVisible();
  await expect(box.getByText("50% deposit when the booking is agreed")).toBeVisible();
  await expect(box.getByText("Cancellation policy: Strict")).toBeVisible();
  await expect(
    box.getByText("30 days to 60 days before: the client pays 50% of the total"),
  ).toBeVisible();
  await dialog.getByLabel("Event Date").fill(addDays(todayIn("Asia/Kolkata"), 40));
  await dialog.getByLabel("Venue").fill("Blue Frog");
  await lookAt(page, "request-terms", info);
  await dialog.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(page.getByRole("heading", { name: "Booking Details" })).toBeVisible();

  // The form's own page (where the dialog leads without JavaScript) says them too.
  await page.goto(`/bookings?artist=${slug}`);
  const onPage = page.getByRole("region", { name: "Booking terms" });
  await expect(onPage.getByText("Balance due 14 days before the event")).toBeVisible();
  await lookAt(page, "request-page-terms", info);
  await visitor.close();
});
