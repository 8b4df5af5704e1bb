// The error catalogue of product-spec 8.1 and 8.2: the server's message decides what is shown.

const UNEXPECTED = "An unexpected error occurred. Please try again.";
export const TOO_MANY_ATTEMPTS =
  "Too many login attempts. Please wait a moment before trying again.";

const SIGN_IN: [string[], string][] = [
  [
    ["invalid login credentials", "invalid email or password"],
    "Invalid email or password. Please check your credentials and try again.",
  ],
  [
    ["email not confirmed", "email not verified"],
    "Please check your email and click the confirmation link before signing in.",
  ],
  [["too many requests", "too many attempts"], TOO_MANY_ATTEMPTS],
  [["user not found"], "No account found with this email address. Please sign up first."],
];

const SIGN_UP: [string[], string][] = [
  [
    ["user already registered", "email already exists", "user already exists"],
    "An account with this email already exists. Please sign in instead.",
  ],
  [
    ["weak password", "password too short"],
    "Password should be at least 6 characters long and contain a mix of letters and numbers.",
  ],
  [["invalid email"], "Please enter a valid email address."],
  [
    ["signup disabled", "sign up is disabled"],
    "Account registration is currently disabled. Please contact support.",
  ],
  [["too many requests", "too many attempts"], TOO_MANY_ATTEMPTS],
];

function lookup(table: [string[], string][], serverMessage: string | null | undefined) {
  if (!serverMessage) return UNEXPECTED;
  const lower = serverMessage.toLowerCase();
  for (const [needles, shown] of table) if (needles.some((n) => lower.includes(n))) return shown;
  return serverMessage;
}

export const signInErrorMessage = (serverMessage?: string | null) => lookup(SIGN_IN, serverMessage);
export const signUpErrorMessage = (serverMessage?: string | null) => lookup(SIGN_UP, serverMessage);

/** Only paths on this site: "/x" yes; "//evil.com", "/\\evil.com", "https://…" no. */
export function safeRedirectPath(
  to: FormDataEntryValue | string | null | undefined,
  fallback = "/",
) {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\"))
    return fallback;
  try {
    const url = new URL(to, "http://placeholder.invalid");
    if (url.origin !== "http://placeholder.invalid") return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
