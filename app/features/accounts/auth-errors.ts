// What a person sees when better-auth refuses a sign-in or a sign-up: better-auth's message picks
// one of our messages (see docs/product.md, Accounts); a message we do not know is shown as it is.

export const UNEXPECTED = "An unexpected error occurred. Please try again.";
export const TOO_MANY_ATTEMPTS =
  "Too many login attempts. Please wait a moment before trying again.";
/** Reasons of a refused sign-in: the address is not confirmed yet; the e-mail or password is wrong. */
export const EMAIL_NOT_CONFIRMED = "email_not_confirmed";
export const INVALID_CREDENTIALS = "invalid_credentials";

/** better-auth's words to look for, what we show, and the reason tag the UI may branch on. */
type Entry = { needles: string[]; shown: string; reason?: string };

const SIGN_IN: Entry[] = [
  {
    needles: ["invalid login credentials", "invalid email or password"],
    shown: "Invalid email or password. Please check your credentials and try again.",
    reason: INVALID_CREDENTIALS,
  },
  {
    needles: ["email not confirmed", "email not verified"],
    shown: "Please check your email and click the confirmation link before signing in.",
    reason: EMAIL_NOT_CONFIRMED,
  },
  { needles: ["too many requests", "too many attempts"], shown: TOO_MANY_ATTEMPTS },
  {
    needles: ["user not found"],
    shown: "No account found with this email address. Please sign up first.",
  },
];

const SIGN_UP: Entry[] = [
  {
    needles: ["user already registered", "email already exists", "user already exists"],
    shown: "An account with this email already exists. Please sign in instead.",
  },
  {
    needles: ["weak password", "password too short"],
    shown:
      "Password should be at least 6 characters long and contain a mix of letters and numbers.",
  },
  { needles: ["invalid email"], shown: "Please enter a valid email address." },
  {
    needles: ["signup disabled", "sign up is disabled"],
    shown: "Account registration is currently disabled. Please contact support.",
  },
  { needles: ["too many requests", "too many attempts"], shown: TOO_MANY_ATTEMPTS },
];

function lookup(
  table: Entry[],
  serverMessage: string | null | undefined,
): { message: string; reason?: string } {
  if (!serverMessage) return { message: UNEXPECTED };
  const lower = serverMessage.toLowerCase();
  const entry = table.find((e) => e.needles.some((n) => lower.includes(n)));
  return entry ? { message: entry.shown, reason: entry.reason } : { message: serverMessage };
}

/** A refused sign-in: the message to show and, for an unconfirmed address, its reason tag. */
export const signInRefusal = (serverMessage?: string | null) => lookup(SIGN_IN, serverMessage);
export const signInErrorMessage = (serverMessage?: string | null) =>
  signInRefusal(serverMessage).message;
export const signUpErrorMessage = (serverMessage?: string | null) =>
  lookup(SIGN_UP, serverMessage).message;
