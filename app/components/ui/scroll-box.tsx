import type { ReactNode } from "react";

/**
 * Content wider than a phone (a table) scrolls sideways inside this box, never the page. A shadow
 * at an edge shows that more lies that way (`scroll-shadows`, CSS only), and on a narrow screen a
 * line under the box says so in words. The box takes the keyboard focus, so it scrolls with the
 * arrow keys too.
 */
export function ScrollBox({
  label,
  hint = "Scroll sideways to see every column.",
  className = "",
  children,
}: {
  /** What the box holds, for assistive technology (it is a region one can focus). */
  label: string;
  hint?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the focus to be scrolled with the keyboard (WCAG 2.1.1). */}
      <section aria-label={label} tabIndex={0} className="scroll-shadows overflow-x-auto">
        {children}
      </section>
      <p className="mt-1 text-xs text-slate-600 sm:hidden">{hint}</p>
    </div>
  );
}
