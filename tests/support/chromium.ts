/** Debian's Chromium (never a downloaded browser), overridable with CHROME_PATH. */
export const chromePath = () => process.env.CHROME_PATH ?? "/usr/bin/chromium";

/** Flags this machine needs: no sandbox as root, and no calls to Google's services. */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
