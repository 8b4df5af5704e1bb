import { describe, expect, it } from "vitest";
import { signInErrorMessage, signInRefusal, signUpErrorMessage } from "./auth-errors";

describe("signInErrorMessage", () => {
  it.each([
    [
      "Invalid email or password",
      "Invalid email or password. Please check your credentials and try again.",
    ],
    [
      "Invalid login credentials",
      "Invalid email or password. Please check your credentials and try again.",
    ],
    [
      "Email not verified",
      "Please check your email and click the confirmation link before signing in.",
    ],
    [
      "Email not confirmed",
      "Please check your email and click the confirmation link before signing in.",
    ],
    ["Too many requests", "Too many login attempts. Please wait a moment before trying again."],
    ["User not found", "No account found with this email address. Please sign up first."],
    ["Something odd", "Something odd"],
    [undefined, "An unexpected error occurred. Please try again."],
  ])("%s → %s", (server, shown) => {
    expect(signInErrorMessage(server)).toBe(shown);
  });
});

describe("signInRefusal", () => {
  it("tags an unconfirmed address and wrong credentials with the reasons the route branches on", () => {
    expect(signInRefusal("Email not verified").reason).toBe("email_not_confirmed");
    expect(signInRefusal("Invalid email or password").reason).toBe("invalid_credentials");
    expect(signInRefusal("User not found").reason).toBeUndefined();
    expect(signInRefusal(null).reason).toBeUndefined();
  });
});

describe("signUpErrorMessage", () => {
  it.each([
    [
      "User already registered",
      "An account with this email already exists. Please sign in instead.",
    ],
    [
      "User already exists. Use another email.",
      "An account with this email already exists. Please sign in instead.",
    ],
    [
      "Weak password",
      "Password should be at least 6 characters long and contain a mix of letters and numbers.",
    ],
    ["Invalid email", "Please enter a valid email address."],
    ["Signup disabled", "Account registration is currently disabled. Please contact support."],
    [null, "An unexpected error occurred. Please try again."],
  ])("%s → %s", (server, shown) => {
    expect(signUpErrorMessage(server)).toBe(shown);
  });
});
