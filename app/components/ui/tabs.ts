import { type KeyboardEvent, useId, useState } from "react";

/**
 * Accessible tabs without a library (they sit on public pages where JavaScript is budgeted):
 * ARIA roles and links between tab and panel, one tab in the Tab order, and Left/Right/Home/End
 * moving between tabs (WAI-ARIA Authoring Practices, automatic activation).
 * Spread `tabProps(id)` on each tab button and `panelProps(id)` on each panel.
 */
export function useTabs<T extends string>(ids: readonly T[], initial: T) {
  const [selected, setSelected] = useState<T>(initial);
  const base = useId();
  const tabId = (id: T) => `${base}-tab-${id}`;
  const panelId = (id: T) => `${base}-panel-${id}`;

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = ids.indexOf(selected);
    const last = ids.length - 1;
    const target = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    const next = target === undefined ? undefined : ids[target];
    if (next === undefined) return;
    event.preventDefault();
    setSelected(next);
    document.getElementById(tabId(next))?.focus();
  };

  return {
    selected,
    select: setSelected,
    tabProps: (id: T) => ({
      type: "button" as const,
      role: "tab",
      id: tabId(id),
      "aria-controls": panelId(id),
      "aria-selected": selected === id,
      tabIndex: selected === id ? 0 : -1,
      onClick: () => setSelected(id),
      onKeyDown,
    }),
    panelProps: (id: T) => ({
      role: "tabpanel",
      id: panelId(id),
      "aria-labelledby": tabId(id),
      hidden: selected !== id,
    }),
  };
}

/** The segmented look shared by the app's tab lists (selected tab raised on a grey track). */
export const segmentedTabClass =
  "rounded-md text-sm font-medium whitespace-nowrap text-slate-600 transition-colors hover:text-slate-900 aria-selected:bg-white aria-selected:text-slate-900 aria-selected:shadow-sm";
