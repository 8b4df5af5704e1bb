import { addDays, todayIn } from "~/lib/dates";
import { createArtistProfile, postArtistProfile } from "./support/artist-helpers";
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

// Ticks travel in the address (decision 060): from one page of results to the next and back, and
// into a new search; the bar lists those ticked elsewhere. With and without JavaScript.
test("ticks for 'Ask together' survive changing pages and searching again", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const token = `tabla${Date.now().toString(36)}`;
  // One more than a page of results, all found by the token; the last also plays at weddings.
  const names = Array.from(
    { length: 25 },
    (_, i) => `Tabla ${String(i + 1).padStart(2, "0")} ${token}`,
  );
  for (const [i, name] of names.entries())
    await postArtistProfile(browser, name, {
      genre: "Classical",
      location: "Pune",
      bio: i === 24 ? `Tabla for sangeet nights (${token}).` : `Tabla (${token}).`,
      instruments: "Tabla",
    });
  const card = (p: typeof page, name: string) =>
    p.getByRole("checkbox", { name: `Ask together: ${name}` });
  const elsewhere = (p: typeof page) => p.getByRole("group", { name: "Also ticked:" });
  const onPage = async (p: typeof page) =>
    (await p.getByRole("checkbox", { name: /^Ask together: / }).all()).length;

  await page.goto(`/artist-discovery?q=${token}`);
  await expect(page.getByText("Page 1")).toBeVisible();
  expect(await onPage(page)).toBe(24);
  const first = (
    await page
      .getByRole("checkbox", { name: /^Ask together: / })
      .first()
      .getAttribute("aria-label")
  )?.replace("Ask together: ", "") as string;
  await card(page, first).check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Page 2")).toBeVisible();
  expect(await onPage(page)).toBe(1);
  // The tick from page 1 is listed, still ticked.
  await expect(elsewhere(page).getByRole("checkbox", { name: first })).toBeChecked();
  const last = (
    await page.getByRole("checkbox", { name: /^Ask together: / }).getAttribute("aria-label")
  )?.replace("Ask together: ", "") as string;
  await card(page, last).check();
  await lookAt(page, "ask-together-ticked-elsewhere", test.info());
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(page.getByText("Page 1")).toBeVisible();
  await expect(card(page, first)).toBeChecked();
  await expect(elsewhere(page).getByRole("checkbox", { name: last })).toBeChecked();
  // A new search keeps them: the sangeet player and the two ticked.
  const sangeet = names[24] as string;
  await page.getByLabel("Search artists").fill(`${token} sangeet`);
  await expect(card(page, sangeet)).toBeVisible();
  await expect(page.getByText("Page 1")).toHaveCount(0);
  for (const name of new Set([first, last]))
    if (name !== sangeet)
      await expect(elsewhere(page).getByRole("checkbox", { name })).toBeChecked();
  await card(page, sangeet).check();
  await page.getByRole("button", { name: "Ask together" }).click();
  const asked = new Set([first, last, sangeet]);
  await expect(
    page.getByRole("heading", { name: `Ask ${asked.size} artists at once` }),
  ).toBeVisible();
  for (const name of asked) await expect(page.getByText(name).first()).toBeVisible();
  // No budget was searched for: the hours are the form's own, not the budget filter's.
  await expect(page.getByLabel("Duration (hours)")).toHaveValue("2");

  // Without JavaScript: the page buttons send the ticks too; one is unticked on the way.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(`/artist-discovery?q=${token}`);
  const second = (
    await plain
      .getByRole("checkbox", { name: /^Ask together: / })
      .nth(1)
      .getAttribute("aria-label")
  )?.replace("Ask together: ", "") as string;
  await card(plain, first).check();
  await card(plain, second).check();
  await plain.getByRole("button", { name: "Next" }).click();
  await expect(plain.getByText("Page 2")).toBeVisible();
  await expect(elsewhere(plain).getByRole("checkbox", { name: first })).toBeChecked();
  await elsewhere(plain).getByRole("checkbox", { name: second }).uncheck();
  await card(plain, last).check();
  await plain.getByRole("button", { name: "Ask together" }).click();
  await expect(plain.getByRole("heading", { name: "Ask 2 artists at once" })).toBeVisible();
  await expect(plain.getByText(first).first()).toBeVisible();
  await expect(plain.getByText(last).first()).toBeVisible();
  await expect(plain.getByText(second)).toHaveCount(0);
  await context.close();
});
