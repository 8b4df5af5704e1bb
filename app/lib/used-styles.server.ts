/**
 * The part of our built stylesheet that one page uses (decision 023). A page's document carries
 * only the rules its own markup can match; the whole stylesheet reaches the browser as a file
 * after the page is drawn, for what appears later (dialogs, other pages).
 *
 * The stylesheet is Tailwind's minified output: at-rules (`@layer`, `@media`, `@supports`,
 * `@property`, `@keyframes`) and style rules, without nesting. A style rule is kept when one of
 * the classes its selector names (outside `:not(…)`) is on the page, or when its selector names no
 * class at all (the base layer: `html`, `*`, `:root`). Custom properties follow what is kept: a
 * `--name` declared by a class-less rule (the theme's values, the property defaults) and an
 * `@property --name` stay when a kept rule mentions `--name`, and an `@keyframes` when a kept rule
 * mentions its name. A rule that cannot match the page's markup can never apply to it, so a page
 * looks exactly as it would with the whole stylesheet until script changes its classes.
 */

type Item =
  /** A statement such as `@layer components;`, or a block kept whole (`@font-face{…}`). */
  | { kind: "verbatim"; text: string }
  /** A block of items: `@layer`, `@media`, `@supports`, `@container`. */
  | { kind: "group"; prelude: string; items: Item[]; keepEmpty: boolean }
  /** A style rule and the classes its selector requires (none: kept on every page). */
  | { kind: "rule"; text: string; classes: string[] }
  /** A class-less rule that only sets custom properties: its declarations are kept one by one. */
  | { kind: "definitions"; selector: string; declarations: [name: string, text: string][] }
  /** `@property --name{…}` or `@keyframes name{…}`: kept when a kept rule mentions the name. */
  | { kind: "named"; name: string; text: string };

type Stylesheet = { items: Item[] };

const GROUPS = /^@(layer|media|supports|container|scope|starting-style)\b/;

/** Splits CSS text into its top-level items; strings, escapes and comments are respected. */
function splitItems(css: string): Item[] {
  const items: Item[] = [];
  let start = 0;
  let depth = 0;
  let open = -1;
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c === "\\") {
      i++;
    } else if (c === '"' || c === "'") {
      i = endOfString(css, i);
    } else if (c === "/" && css[i + 1] === "*") {
      const end = css.indexOf("*/", i + 2);
      i = end === -1 ? css.length : end + 1;
      if (depth === 0) start = i + 1; // a comment between items is dropped
    } else if (c === "{") {
      if (depth === 0) open = i;
      depth++;
    } else if (c === "}") {
      depth--;
      if (depth === 0) {
        items.push(blockItem(css.slice(start, open).trim(), css.slice(open + 1, i)));
        start = i + 1;
      }
    } else if (c === ";" && depth === 0) {
      const text = css.slice(start, i + 1).trim();
      if (text !== ";") items.push({ kind: "verbatim", text });
      start = i + 1;
    }
  }
  return items;
}

function endOfString(css: string, from: number): number {
  const quote = css[from];
  for (let i = from + 1; i < css.length; i++) {
    if (css[i] === "\\") i++;
    else if (css[i] === quote) return i;
  }
  return css.length;
}

function blockItem(prelude: string, body: string): Item {
  if (GROUPS.test(prelude)) {
    return {
      kind: "group",
      prelude,
      items: splitItems(body),
      keepEmpty: prelude.startsWith("@layer"),
    };
  }
  const property = /^@property\s+(--[\w-]+)/.exec(prelude);
  if (property?.[1]) {
    return { kind: "named", name: property[1], text: `${prelude}{${body}}` };
  }
  const keyframes = /^@(?:-webkit-)?keyframes\s+([\w-]+)/.exec(prelude);
  if (keyframes?.[1]) {
    return { kind: "named", name: keyframes[1], text: `${prelude}{${body}}` };
  }
  if (prelude.startsWith("@")) return { kind: "verbatim", text: `${prelude}{${body}}` };
  const classes = selectorClasses(prelude);
  const declarations = classes.length === 0 ? customDeclarations(body) : null;
  if (declarations) return { kind: "definitions", selector: prelude, declarations };
  return { kind: "rule", text: `${prelude}{${body}}`, classes };
}

/** Whether the text names an animation: as a word, not part of a longer name. */
const namesWord = (text: string, name: string) =>
  new RegExp(`(?<![\\w-])${name.replace(/-/g, "\\-")}(?![\\w-])`).test(text);

/** The class names a selector requires, unescaped; those inside `:not(…)` are left out. */
export function selectorClasses(selector: string): string[] {
  const classes: string[] = [];
  const negated: boolean[] = []; // one entry per open parenthesis
  let inNot = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '"' || c === "'") {
      i = endOfString(selector, i);
    } else if (c === "[") {
      // An attribute selector: skip to its end (it may hold dots in a quoted value).
      for (i++; i < selector.length && selector[i] !== "]"; i++) {
        if (selector[i] === '"' || selector[i] === "'") i = endOfString(selector, i);
        else if (selector[i] === "\\") i++;
      }
    } else if (c === "(") {
      const isNot = selector.slice(Math.max(0, i - 4), i) === ":not";
      negated.push(isNot);
      if (isNot) inNot++;
    } else if (c === ")") {
      if (negated.pop()) inNot--;
    } else if (c === ".") {
      const [name, end] = readIdent(selector, i + 1);
      if (name && inNot === 0) classes.push(name);
      i = end - 1;
    }
  }
  return classes;
}

/** Reads a CSS identifier from `from`, resolving escapes; returns it and where it ends. */
function readIdent(text: string, from: number): [string, number] {
  let name = "";
  let i = from;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\\") {
      const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(text.slice(i + 1, i + 8));
      if (hex) {
        name += String.fromCodePoint(Number.parseInt(hex[0].trim(), 16));
        i += 1 + hex[0].length;
      } else {
        name += text[i + 1] ?? "";
        i += 2;
      }
    } else if (/[\w-]/.test(c) || c.charCodeAt(0) > 0x7f) {
      name += c;
      i++;
    } else {
      break;
    }
  }
  return [name, i];
}

export function parseStylesheet(css: string): Stylesheet {
  return { items: splitItems(css) };
}

/** Every class name in the markup's `class` attributes. */
export function markupClasses(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of decodeEntities(match[1] ?? "").split(/\s+/)) {
      if (name) classes.add(name);
    }
  }
  return classes;
}

const ENTITIES: Record<string, string> = { amp: "&", quot: '"', lt: "<", gt: ">", apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const hex = entity[1] === "x" || entity[1] === "X";
      return String.fromCodePoint(Number.parseInt(entity.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

const CUSTOM_PROPERTY = /(--[\w-]+)\s*:/g;
const MENTIONED = /--[\w-]+/g;

/** The stylesheet's rules that the markup can use, in their original order. */
export function usedStyles(sheet: Stylesheet, classes: ReadonlySet<string>): string {
  // 1. Rules chosen by class; definitions wait for step 2.
  const chosen = new Map<Item, string>();
  const definitions: Extract<Item, { kind: "definitions" }>[] = [];
  const named: Extract<Item, { kind: "named" }>[] = [];
  const visit = (items: Item[]) => {
    for (const item of items) {
      if (item.kind === "group") visit(item.items);
      else if (item.kind === "named") named.push(item);
      else if (item.kind === "definitions") definitions.push(item);
      else if (item.kind === "verbatim") chosen.set(item, item.text);
      else if (item.classes.length === 0 || item.classes.some((name) => classes.has(name)))
        chosen.set(item, item.text);
    }
  };
  visit(sheet.items);

  // 2. Custom properties mentioned by what is kept, and what their values mention in turn.
  const mentioned = new Set<string>();
  const mention = (text: string) => {
    for (const [name] of text.matchAll(MENTIONED)) mentioned.add(name);
  };
  for (const text of chosen.values()) mention(text);
  const kept = new Map<Item, Set<number>>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const item of definitions) {
      const indices = kept.get(item) ?? new Set<number>();
      item.declarations.forEach(([name, text], index) => {
        if (indices.has(index) || !mentioned.has(name)) return;
        indices.add(index);
        mention(text);
        grew = true;
      });
      if (indices.size > 0) kept.set(item, indices);
    }
  }
  for (const item of definitions) {
    const indices = kept.get(item);
    if (!indices) continue;
    const body = item.declarations
      .filter((_, index) => indices.has(index))
      .map(([, text]) => text)
      .join(";");
    chosen.set(item, `${item.selector}{${body}}`);
  }
  const keptText = [...chosen.values()].join("");
  for (const item of named) {
    const used = item.name.startsWith("--")
      ? mentioned.has(item.name)
      : namesWord(keptText, item.name);
    if (used) chosen.set(item, item.text);
  }

  // 3. Written out in the stylesheet's order; empty groups fall away (layers stay, for order).
  const write = (items: Item[]): string =>
    items
      .map((item) => {
        if (item.kind !== "group") return chosen.get(item) ?? "";
        const inner = write(item.items);
        return inner || item.keepEmpty ? `${item.prelude}{${inner}}` : "";
      })
      .join("");
  return write(sheet.items);
}

/** A body's declarations when each one sets a custom property, else null. */
function customDeclarations(body: string): [string, string][] | null {
  const parts = splitDeclarations(body);
  const declarations: [string, string][] = [];
  for (const text of parts) {
    CUSTOM_PROPERTY.lastIndex = 0;
    const match = CUSTOM_PROPERTY.exec(text);
    if (!match?.[1] || match.index !== 0) return null;
    declarations.push([match[1], text]);
  }
  return declarations.length > 0 ? declarations : null;
}

function splitDeclarations(body: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\") i++;
    else if (c === '"' || c === "'") i = endOfString(body, i);
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === ";" && depth === 0) {
      parts.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = body.slice(start).trim();
  if (last) parts.push(last);
  return parts.filter(Boolean);
}
