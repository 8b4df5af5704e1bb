import { addDays, todayIn } from "~/lib/dates";
import { createArtistProfile } from "./support/artist-helpers";
import {
  expect,
  signIn,
  signOut,
  signUpConfirmed,
  type TestAccount,
  test,
} from "./support/fixtures";
import { lookAt, lookAtWidths } from "./support/look-at";

// One request to several artists (issue 43, decision 060): a client ticks 'Ask together' on three
// cards, sends one request, and each artist answers on their own booking; when one accepts, the
// others are withdrawn and told. Then the same from a browser without JavaScript.

test("a client asks three artists at once; one accepts and the others are withdrawn", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const token = `sitar${Date.now().toString(36)}`;
  const names = ["Asha", "Bela", "Chandni"].map((n) => `${n} Sitar ${token}`);
  const accounts: TestAccount[] = [];
  for (const [i, name] of names.entries()) {
    accounts.push(await signUpConfirmed(page));
    await createArtistProfile(
      page,
      name,
      {
        Genre: "Classical",
        Location: "Pune",
        Bio: `Sitar for weddings (${token}).`,
        Instruments: "Sitar",
        "Hourly Rate (₹)": String(2000 + i * 500),
      },
      { occasions: ["Wedding"] },
    );
    await signOut(page);
  }
  const password = (name: string) => accounts[names.indexOf(name)] as TestAccount;

  // The client finds them, ticks all three and asks them together.
  const client = await signUpConfirmed(page);
  await page.goto(`/artist-discovery?q=${token}`);
  for (const name of names)
    await page.getByRole("checkbox", { name: `Ask together: ${name}` }).check();
  await page.getByRole("button", { name: "Ask together" }).click();
  await expect(page.getByRole("heading", { name: "Ask 3 artists at once" })).toBeVisible();
  const date = addDays(todayIn("Asia/Kolkata"), 45);
  await page.getByLabel("Event Date").fill(date);
  await page.getByLabel("Duration (hours)").fill("3");
  await page.getByLabel("Venue").fill("Koregaon Park lawns, Pune");
  await page.getByLabel("Event Type").selectOption("Wedding");
  await page.getByLabel("Additional Details (optional)").fill("Sangeet, about 200 guests.");
  // Each artist's estimate and terms before sending.
  await expect(page.getByText(`${names[0]}: ₹6,000.00`)).toBeVisible();
  await expect(page.getByText(`${names[2]}: ₹9,000.00`)).toBeVisible();
  await expect(page.getByRole("heading", { name: `${names[1]}'s booking terms` })).toBeVisible();
  await lookAt(page, "ask-together-form", test.info());
  await page.getByRole("button", { name: "Send Request to 3 Artists" }).click();
  await expect(page.getByText("Booking Requests Sent!")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Booking Details" })).toBeVisible();
  const others = page.getByText("Also sent to 2 other artists").locator("..");
  await expect(others).toBeVisible();
  // Where each artist's booking is, read from the client's page.
  const first = (await page.getByText(/^With /).textContent())?.replace(/^With /, "").trim();
  const bookings = new Map<string, string>([[first as string, new URL(page.url()).pathname]]);
  for (const link of await others.getByRole("link").all())
    bookings.set((await link.textContent()) as string, (await link.getAttribute("href")) as string);
  expect([...bookings.keys()].sort()).toEqual([...names].sort());
  await lookAt(page, "ask-together-sent", test.info());
  await signOut(page);

  // Bela sees it went to three artists, and accepts.
  const bela = names[1] as string;
  await signIn(page, password(bela).email, password(bela).password);
  await expect(page).not.toHaveURL(/\/auth/);
  await page.goto(bookings.get(bela) as string);
  await expect(page.getByText("sent this request to 3 artists")).toBeVisible();
  await page.getByRole("button", { name: "Accept Booking" }).click();
  await expect(page.getByText("Booking Confirmed")).toBeVisible();
  await signOut(page);

  // Asha's request was withdrawn: she is told why, and can no longer accept it.
  const asha = names[0] as string;
  await signIn(page, password(asha).email, password(asha).password);
  await expect(page).not.toHaveURL(/\/auth/);
  await page.goto(bookings.get(asha) as string);
  await expect(
    page.getByText(/agreed with another artist this request was also sent to/),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Accept Booking" })).toHaveCount(0);
  await lookAt(page, "ask-together-withdrawn-artist", test.info());
  await page.goto("/dev/outbox");
  await expect(page.getByText(/withdrew their request for/).first()).toBeVisible();
  await signOut(page);

  // The client sees the one agreed and the others withdrawn.
  await signIn(page, client.email, client.password);
  await expect(page).not.toHaveURL(/\/auth/);
  await page.goto(bookings.get(asha) as string);
  await expect(
    page.getByText("Withdrawn: you agreed with another artist for this event."),
  ).toBeVisible();
  await page.getByRole("link", { name: `See your booking with ${bela}` }).click();
  await expect(page.getByText("Confirmed").first()).toBeVisible();
  await expect(page.getByText(`${asha}`).first()).toBeVisible();
  await lookAt(page, "ask-together-client", test.info());

  // Without JavaScript: the same ticks, the same request page, the same form.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await signIn(plain, client.email, client.password);
  await expect(plain).not.toHaveURL(/\/auth/);
  await plain.goto(`/artist-discovery?q=${token}`);
  // Nothing ticked: the page says what to do.
  await plain.getByRole("button", { name: "Ask together" }).click();
  await expect(plain.getByRole("heading", { name: "Choose the artists to ask" })).toBeVisible();
  await plain.goBack();
  await plain.getByRole("checkbox", { name: `Ask together: ${asha}` }).check();
  await plain.getByRole("checkbox", { name: `Ask together: ${names[2]}` }).check();
  await plain.getByRole("button", { name: "Ask together" }).click();
  await expect(plain.getByRole("heading", { name: "Ask 2 artists at once" })).toBeVisible();
  await plain.getByLabel("Event Date").fill(addDays(date, 7));
  await plain.getByLabel("Venue").fill("Baner, Pune");
  await plain.getByRole("button", { name: "Send Request to 2 Artists" }).click();
  await expect(plain.getByRole("heading", { name: "Booking Details" })).toBeVisible();
  await expect(plain.getByText("Also sent to 1 other artist")).toBeVisible();
  await lookAtWidths(plain, "ask together without JavaScript");
  await context.close();
});
