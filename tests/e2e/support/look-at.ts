import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, type TestInfo } from "@playwright/test";

/**
 * The page as it is, at 1280 and at 375 px (screenshots kept with the test's results): at neither
 * width may it scroll sideways, and axe may find nothing critical or serious. Leaves the page at
 * 1280 × 900.
 */
export async function lookAt(page: Page, name: string, info: TestInfo) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: info.outputPath(`${name}-${width}.png`), fullPage: true });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((v) => v.impact === "critical" || v.impact === "serious");
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`),
      `${name} at ${width} px`,
    ).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * Without scripts, the widths only (axe runs in the page's JavaScript): at neither width may the
 * page scroll sideways. The screenshots and axe are the JavaScript test's.
 */
export async function lookAtWidths(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
