import { createElement, type ReactNode, type Ref, type SVGProps } from "react";

/**
 * The browser build's stand-in for lucide-react's `createLucideIcon` (see `leanIcons` in
 * vite.chunks.ts): every `lucide-react/icons/<name>` module calls it with its drawing. Lucide's
 * own version goes through a context, a generic node builder and six helpers (about 2 KiB
 * compressed on every page); this one renders the same <svg> for the props we use (class names,
 * ARIA, size, color, stroke width) with the same attributes in the same order, so the server's
 * markup (rendered by lucide-react itself) hydrates unchanged. `lucide-icon.test.ts` compares
 * the two for every icon the app imports.
 */
type IconNode = [string, Record<string, string | number>][];
type IconData = { name?: string; size?: number; node: IconNode; aliases?: (string | unknown)[] };
type IconProps = Omit<SVGProps<SVGSVGElement>, "ref"> & {
  ref?: Ref<SVGSVGElement>;
  size?: string | number;
  children?: ReactNode;
};

const a11y = (props: Record<string, unknown>) =>
  Object.keys(props).some(
    (k) => (k.startsWith("aria-") || k === "role" || k === "title") && props[k] != null,
  );

export default function createLucideIcon(data: IconData) {
  const box = data.size ?? 24;
  const names = [data.name, ...(data.aliases ?? [])]
    .filter((n): n is string => typeof n === "string" && n.trim() !== "")
    .map((n) => `lucide-${n}`);
  // A ref is a prop like any other (React 19).
  // biome-ignore lint/correctness/noComponentHookFactories: a factory, called once per icon module.
  return function LucideIcon({
    ref,
    color,
    size,
    width,
    height,
    strokeWidth,
    className = "",
    children,
    ...rest
  }: IconProps) {
    const classes = [...new Set(["lucide", ...names, ...className.split(/\s+/)])].filter(Boolean);
    return createElement(
      "svg",
      {
        ref,
        xmlns: "http://www.w3.org/2000/svg",
        width: width ?? size ?? 24,
        height: height ?? size ?? 24,
        viewBox: `0 0 ${box} ${box}`,
        fill: "none",
        stroke: color ?? "currentColor",
        strokeWidth: strokeWidth ?? 2,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: classes.join(" "),
        ...(children || a11y(rest) ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      [
        ...data.node.map(([tag, attrs]) => createElement(tag, attrs)),
        ...(Array.isArray(children) ? children : [children]),
      ],
    );
  };
}
