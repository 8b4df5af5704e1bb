import type { Page } from "@playwright/test";
import {
  expect,
  mailLink,
  newAccount,
  signIn,
  signOut,
  signUpConfirmed,
  submitSignUpForm,
  type TestAccount,
  test,
} from "./support/fixtures";
import { holdScripts } from "./support/hold-scripts";

const INVALID = "Invalid email or password. Please check your credentials and try again.";

/** Sign-up through the form: this file's subject; the other tests use `signUpConfirmed`. */
async function signUp(page: Page, account: TestAccount) {
  await page.goto("/auth?tab=signup");
  await submitSignUpForm(page, account);
}

test("sign up, confirm from the mail, sign out and sign in again", async ({ page }) => {
  const account = newAccount({ firstName: "Meera", lastName: "Iyer" });
  await signUp(page, account);
  await expect(page.getByText(`We sent a confirmation link to ${account.email}`)).toBeVisible();
  await expect(page.getByText("Account Created!")).toBeVisible();
  // Back returns to the form with the password cleared.
  await page.getByRole("link", { name: "Back" }).click();
  await expect(page.getByLabel("Password")).toHaveValue("");

  await page.goto(await mailLink(page, account.email, /Confirm your GigLedger account/));
  // Sign-up asked what the person came for (booking, by default): the link continues there.
  await expect(page).toHaveURL(/\/artist-discovery$/);
  const menuButton = page.getByRole("button", { name: "Account menu for Meera Iyer" });
  await expect(menuButton).toBeVisible();
  await menuButton.click();
  const menu = page.locator("#user-menu");
  await expect(menu.getByText(account.email)).toBeVisible();
  await expect(menu.getByRole("link", { name: "Create artist profile" })).toHaveAttribute(
    "href",
    "/profile-setup",
  );
  await expect(menu.getByRole("link", { name: "My Bookings" })).toHaveAttribute(
    "href",
    "/client-bookings",
  );
  await page.keyboard.press("Escape");
  // Someone without an artist profile: Dashboard leads to their bookings, not to profile setup.
  await expect(
    page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Dashboard", exact: true }),
  ).toHaveAttribute("href", "/client-bookings");

  await signOut(page);
  await expect(page.getByText("Signed out")).toBeVisible();
  await signIn(page, account.email, account.password);
  await expect(page.getByText("Welcome back!")).toBeVisible();
  await expect(menuButton).toBeVisible();
  // A signed-in visitor of /auth goes home.
  await page.goto("/auth");
  await expect(page).toHaveURL(/\/$/);
});

test("wrong password and unknown e-mail give the same message", async ({ page }) => {
  const account = await signUpConfirmed(page);
  await signOut(page);
  await signIn(page, account.email, "not-the-password");
  await expect(page.getByRole("main").getByText(INVALID)).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(account.email);
  await signIn(page, `nobody.${account.email}`, "whatever-password");
  await expect(page.getByRole("main").getByText(INVALID)).toBeVisible();
});

test("signing in before confirming asks to confirm, and the mail can be sent again", async ({
  page,
}) => {
  const account = newAccount();
  await signUp(page, account);
  await signIn(page, account.email, account.password);
  await expect(
    page
      .getByRole("main")
      .getByText("Please check your email and click the confirmation link before signing in."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Resend confirmation email" }).click();
  await expect(page.getByText("Confirmation email sent")).toBeVisible();
});

test("validation messages of the sign-up form", async ({ page }) => {
  await page.goto("/auth?tab=signup");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("123");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("First name is required")).toBeVisible();
  await expect(page.getByText("Last name is required")).toBeVisible();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByText("Password must be at least 6 characters long")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email");
});

test("forgot password: the reset link sets a new password; the old one stops working", async ({
  page,
}) => {
  const account = await signUpConfirmed(page);
  await signOut(page);
  await page.goto("/auth");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Reset email sent")).toBeVisible();

  const link = await mailLink(page, account.email, /Reset your GigLedger password/);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
  await page.getByLabel("New Password").fill("brand-new-pass");
  await page.getByLabel("Confirm Password").fill("different");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await page.getByLabel("New Password").fill("brand-new-pass");
  await page.getByLabel("Confirm Password").fill("brand-new-pass");
  await page.getByRole("button", { name: "Update Password" }).click();
  await expect(page.getByRole("heading", { name: "Password Updated" })).toBeVisible();
  // On to the dashboard: for someone who came to book and has no bookings yet, discovery.
  await expect(page).toHaveURL(/\/artist-discovery/, { timeout: 5000 });

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Invalid Reset Link" })).toBeVisible();

  await page.goto("/");
  await signOut(page);
  await signIn(page, account.email, account.password);
  await expect(page.getByRole("main").getByText(INVALID)).toBeVisible();
  await signIn(page, account.email, "brand-new-pass");
  await expect(page.getByRole("button", { name: /Account menu for/ })).toBeVisible();
});

test("protected pages send visitors to sign in and back", async ({ page }) => {
  const account = await signUpConfirmed(page);
  await signOut(page);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fsettings/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
});

test("settings: change the name, and the e-mail through the new address", async ({ page }) => {
  const account = await signUpConfirmed(page);
  await page.goto("/settings");
  const save = page.getByRole("button", { name: "Save Changes" });
  await expect(save).toBeDisabled();
  await page.getByLabel("First Name").fill("Asha Devi");
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText("Settings updated")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Account menu for Asha Devi Rao" })).toBeVisible();
  await expect(page.getByLabel("First Name")).toHaveValue("Asha Devi");

  // A name typed before the page's scripts run (decision 024) is kept, and can be saved.
  const runScripts = await holdScripts(page);
  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByLabel("Last Name").fill("Rao Menon");
  await runScripts();
  await expect(page.getByLabel("Last Name")).toHaveValue("Rao Menon");
  await save.click();
  await expect(page.getByText("Settings updated")).toBeVisible();
  await expect(
    page.getByRole("button", { name: "Account menu for Asha Devi Rao Menon" }),
  ).toBeVisible();

  const newEmail = `new.${account.email}`;
  await page.getByLabel("Email Address").fill(newEmail);
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Email update initiated")).toBeVisible();
  await expect(
    page.getByText("Please check your new email address to confirm the change."),
  ).toBeVisible();
  await page.goto(await mailLink(page, newEmail, /Confirm your new GigLedger e-mail address/));
  await expect(page.getByText("Your new e-mail address is confirmed.")).toBeVisible();
  await expect(page.getByLabel("Email Address")).toHaveValue(newEmail);

  await signOut(page);
  await signIn(page, newEmail, account.password);
  await expect(page.getByRole("button", { name: /Account menu for/ })).toBeVisible();
});

test("delete account: then signing in fails", async ({ page }) => {
  const account = await signUpConfirmed(page);
  await page.goto("/settings");
  const danger = page.getByRole("region", { name: "Delete account" });
  await danger.getByLabel("Password").fill("wrong-password");
  await danger.getByRole("button", { name: "Delete account" }).click();
  await expect(page.getByRole("main").getByText("That password is not correct.")).toBeVisible();
  await danger.getByLabel("Password").fill(account.password);
  await danger.getByRole("button", { name: "Delete account" }).click();
  await expect(page.getByText("Account deleted")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, account.email, account.password);
  await expect(page.getByRole("main").getByText(INVALID)).toBeVisible();
});
