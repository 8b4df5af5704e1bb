const BASE = "http://same-origin.invalid";
const hasControlCharacter = (s: string) =>
  [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

const isPlainPath = (path: string) =>
  path.startsWith("/") && !path.startsWith("//") && !path.includes("\\");

/**
 * A same-origin path to go to after an action (`redirectTo`, `returnTo`), or `fallback`. Both the
 * raw input and its normalised form must be a plain path: `/.//evil.example` normalises to
 * `//evil.example`, which a browser treats as another host, so it is refused. Backslashes
 * (browsers read them as slashes) and control characters are refused outright.
 */
export function safeRedirectPath(
  to: FormDataEntryValue | string | null | undefined,
  fallback = "/",
): string {
  if (typeof to !== "string" || to.length > 2000 || hasControlCharacter(to) || !isPlainPath(to))
    return fallback;
  let url: URL;
  try {
    url = new URL(to, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return isPlainPath(path) ? path : fallback;
}
