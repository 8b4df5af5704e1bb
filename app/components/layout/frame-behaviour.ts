import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import type { MarkupActions } from "~/components/ui/server-markup";

// The page frame (header and footer) is server markup (decision 022); this is its behaviour.
export const MOBILE_NAV_ID = "mobile-nav";
export const USER_MENU_ID = "user-menu";

const supportsCommands = () => "command" in HTMLButtonElement.prototype;

export const frameActions: MarkupActions = {
  /** An invoker command button (`commandfor`, `command`) in a browser that lacks them. */
  command: (button) => {
    if (supportsCommands()) return; // the browser did it already
    const target = document.getElementById(button.getAttribute("commandfor") ?? "");
    if (!(target instanceof HTMLDialogElement)) return;
    if (button.getAttribute("command") === "close") target.close();
    else target.showModal();
  },
};

/**
 * The navigation sheet and the account menu close when the page changes; not when the page
 * hydrates: one opened before the page's scripts ran (they start after its first paint) stays
 * open.
 */
export function useFrameBehaviour() {
  const { key } = useLocation();
  const shown = useRef(key);
  useEffect(() => {
    if (shown.current === key) return;
    shown.current = key;
    document.querySelector<HTMLDialogElement>(`dialog#${MOBILE_NAV_ID}[open]`)?.close();
    document.querySelector<HTMLElement>(`#${USER_MENU_ID}:popover-open`)?.hidePopover();
  }, [key]);
}
