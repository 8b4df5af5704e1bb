import { type KeyboardEvent, type MouseEvent, useId, useState } from "react";

/** A click that asks the browser for a new tab or window: left to the browser. */
export const isNewTabClick = (event: MouseEvent) =>
  event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0;

/**
 * Accessible tabs without a library (they sit on public pages where JavaScript is budgeted):
 * ARIA roles and links between tab and panel, one tab in the Tab order, and Left/Right/Home/End
 * moving between tabs (WAI-ARIA Authoring Practices, automatic activation).
 * Spread `panelProps(id)` on each panel and, on each tab, either `tabProps(id)` (a button) or
 * `linkTabProps(id, href)` (a link to the page opened on that tab). A page's scripts start after
 * its first paint (decision 024), so a button tab does nothing until they have run, and nothing at
 * all without JavaScript; a link tab is followed then, and switches in place once they have.
 */
export function useTabs<T extends string>(ids: readonly T[], initial: T) {
  const [selected, setSelected] = useState<T>(initial);
  const base = useId();
  const tabId = (id: T) => `${base}-tab-${id}`;
  const panelId = (id: T) => `${base}-panel-${id}`;

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
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

  const ariaProps = (id: T) => ({
    role: "tab",
    id: tabId(id),
    "aria-controls": panelId(id),
    "aria-selected": selected === id,
    tabIndex: selected === id ? 0 : -1,
    onKeyDown,
  });

  return {
    selected,
    tabProps: (id: T) => ({
      ...ariaProps(id),
      type: "button" as const,
      onClick: () => setSelected(id),
    }),
    linkTabProps: (id: T, href: string) => ({
      ...ariaProps(id),
      href,
      onClick: (event: MouseEvent) => {
        if (isNewTabClick(event)) return;
        event.preventDefault();
        setSelected(id);
      },
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

/**
 * The address of the page at `location` opened on tab `id`: search parameter `param` names it,
 * left out for the first tab, `first`. The page reads it back to pick its initial tab.
 */
export function tabHref(
  location: { pathname: string; search: string },
  param: string,
  id: string,
  first: string,
) {
  const params = new URLSearchParams(location.search);
  if (id === first) params.delete(param);
  else params.set(param, id);
  const query = params.toString();
  return `${location.pathname}${query ? `?${query}` : ""}`;
}

/** The tab named by search parameter `param` in `search`, when it is one of `ids`; else `first`. */
export function tabFromSearch<T extends string>(
  search: string,
  param: string,
  ids: readonly T[],
  first: T,
): T {
  const named = new URLSearchParams(search).get(param);
  return ids.find((id) => id === named) ?? first;
}
