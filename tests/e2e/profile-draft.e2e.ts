import { expect, mailLink, newAccount, postSignUp, test, whenHydrated } from "./support/fixtures";

/**
 * What a newcomer types into profile set-up is still there when the confirmation mail's link
 * opens in a new tab (decision 040): kept in this browser as it is typed, drawn by the server.
 */
test("profile set-up typed before signing up is there in the confirmation's new tab", async ({
  page,
  context,
}) => {
  await page.goto("/profile-setup");
  await whenHydrated(page);
  const kept = page.waitForResponse(
    (r) =>
      r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/profile-setup"),
  );
  await page.getByLabel("Artist Name").fill("Draft Keeper Quartet");
  await page.getByLabel("Genre").fill("Gypsy jazz");
  await page.getByLabel("Bio").fill("Four strings and a double bass, every Friday.");
  await kept;

  // Not submitted: the person signs up instead, in this browser (over HTTP here: the sign-up form
  // itself is accounts.e2e.ts's subject, and the draft's cookies are only sent to /profile-setup).
  const account = await postSignUp(page, newAccount({ firstName: "Drafty" }));
  const link = await mailLink(page, account.email, /Confirm your GigLedger account/);

  // The mail's link opens a new tab of the same browser.
  const tab = await context.newPage();
  await tab.goto(link);
  await tab.goto("/profile-setup");
  await expect(tab.getByLabel("Artist Name")).toHaveValue("Draft Keeper Quartet");
  await expect(tab.getByLabel("Genre")).toHaveValue("Gypsy jazz");
  await expect(tab.getByLabel("Bio")).toHaveValue("Four strings and a double bass, every Friday.");
  // Signed in there: creating the profile now works, and the draft is gone afterwards.
  await tab.getByLabel("Location").fill("Lyon");
  await tab.getByLabel("Experience").fill("8 years");
  await tab.getByLabel("Instruments").fill("Guitar, Double bass");
  await tab.getByRole("button", { name: "Create Profile" }).click();
  await expect(tab.getByText("Profile Created!")).toBeVisible();
  const cookies = await context.cookies();
  expect(cookies.filter((c) => c.name.startsWith("gl_profile_draft."))).toEqual([]);
});
