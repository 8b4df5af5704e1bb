import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ForwardRefExoticComponent } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import createLucideIcon from "./lucide-icon";

// Every icon the app imports (`lucide-react/icons/<name>`), found in the sources.
function iconsInApp(dir: string, found = new Set<string>()) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) iconsInApp(file, found);
    else if (/\.tsx?$/.test(entry.name))
      for (const m of readFileSync(file, "utf8").matchAll(/"lucide-react\/icons\/([\w-]+)"/g))
        if (m[1]) found.add(m[1]);
  }
  return found;
}

const icons = [...iconsInApp(path.resolve(import.meta.dirname, "../.."))].sort();
// biome-ignore lint/suspicious/noExplicitAny: icon props vary
type Icon = ForwardRefExoticComponent<any>;
const propsUsed = [
  { "aria-hidden": true, className: "h-4 w-4" },
  { className: "mt-0.5 h-4 w-4 shrink-0 text-brand-600 lucide" },
  {},
  { "aria-label": "Close", role: "img" },
  { size: 16, strokeWidth: 1.5, color: "red", fill: "currentColor" },
];

type IconModule = { default: Icon; __iconData?: Parameters<typeof createLucideIcon>[0] };

/**
 * An icon's module with its data. Renamed icons (`trash-2`) are modules that only re-export the
 * current one's default (`./trash.mjs`); the data is in that one, which the browser build loads
 * with the lean runtime all the same.
 */
async function iconModule(
  name: string,
): Promise<IconModule & Required<Pick<IconModule, "__iconData">>> {
  const module = (await import(`lucide-react/icons/${name}`)) as IconModule;
  if (module.__iconData) return { ...module, __iconData: module.__iconData };
  const source = readFileSync(
    path.resolve(
      import.meta.dirname,
      `../../../node_modules/lucide-react/dist/esm/icons/${name}.mjs`,
    ),
    "utf8",
  );
  const target = /export \{ default \} from '\.\/([\w-]+)\.mjs'/.exec(source)?.[1];
  if (!target || target === name) throw new Error(`${name}: no icon data and no alias`);
  return iconModule(target);
}

describe("the browser's lean lucide icons", () => {
  test("the app imports icons", () => {
    expect(icons.length).toBeGreaterThan(10);
  });

  test.each(icons)("%s draws the same <svg> as lucide-react's own", async (name) => {
    const real = await iconModule(name);
    const lean = createLucideIcon(real.__iconData);
    for (const props of propsUsed)
      expect(renderToStaticMarkup(createElement(lean, props))).toBe(
        renderToStaticMarkup(createElement(real.default, props)),
      );
  });
});
