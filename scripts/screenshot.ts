// Screenshots of pages at desktop and phone width, for looking at what a change did:
//   npx tsx scripts/screenshot.ts http://127.0.0.1:3000 / /discover
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, chromePath } from "../tests/support/chromium";

const [base, ...paths] = process.argv.slice(2);
if (!base || paths.length === 0) {
  console.error("usage: tsx scripts/screenshot.ts BASE_URL PATH…");
  process.exit(1);
}
const out = process.env.SCREENSHOT_DIR ?? "/tmp/screenshots";
const browser = await chromium.launch({ executablePath: chromePath(), args: CHROMIUM_ARGS });
for (const [label, viewport] of [
  ["desktop", { width: 1280, height: 800 }],
  ["mobile", { width: 375, height: 740 }],
] as const) {
  const page = await browser.newPage({ viewport });
  for (const p of paths) {
    await page.goto(new URL(p, base).href, { waitUntil: "networkidle" });
    const file = `${out}/${label}${p.replaceAll("/", "_") || "_root"}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await page.close();
}
await browser.close();
