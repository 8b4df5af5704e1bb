import { useEffect } from "react";
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

/** The navigation sheet and the account menu close when the page changes. */
export function useFrameBehaviour() {
  const { key } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation, by design.
  useEffect(() => {
    document.querySelector<HTMLDialogElement>(`dialog#${MOBILE_NAV_ID}[open]`)?.close();
    document.querySelector<HTMLElement>(`#${USER_MENU_ID}:popover-open`)?.hidePopover();
  }, [key]);
}
