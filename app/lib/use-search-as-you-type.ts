import { useCallback, useEffect, useRef } from "react";
import { useNavigation, useSubmit } from "react-router";

/** A press or click that follows a link in this tab (not a new tab or window, not a download). */
function followsLink(event: MouseEvent) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return false;
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return false;
  return !link.target || link.target === "_self";
}

/**
 * A search form whose results follow the typing: `submitSoon(form, ms)` submits it (replacing the
 * last search in history) once the person has stopped for `ms`. A search still waiting dies when
 * the person moves on before it fires: a form submitted (Enter, the button), a link followed (a
 * result), back or forward, any other navigation, the page going away. Fired after that, it would
 * take them from the page they opened back to the results.
 *
 * The clicks, submits and history moves are caught on the document as they happen: React
 * Router's navigation state reaches the page a render later, and a route that still has to load
 * its code can take longer than the wait. A link counts as followed from the press (mousedown,
 * which a tap fires just before its click, a scroll never): the wait can run out between the
 * press and the click. A search that fired before the press is no race: the link's navigation
 * aborts it.
 */
export function useSearchAsYouType() {
  const submit = useSubmit();
  const navigation = useNavigation();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
  }, []);

  const submitSoon = useCallback(
    (form: HTMLFormElement | null, ms: number) => {
      cancel();
      if (!form) return;
      timer.current = setTimeout(() => {
        timer.current = undefined;
        if (form.isConnected) submit(form, { replace: true, preventScrollReset: true });
      }, ms);
    },
    [cancel, submit],
  );

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (timer.current !== undefined && followsLink(event)) cancel();
    };
    document.addEventListener("mousedown", onClick, true);
    document.addEventListener("click", onClick, true);
    document.addEventListener("submit", cancel, true);
    window.addEventListener("popstate", cancel);
    return () => {
      cancel();
      document.removeEventListener("mousedown", onClick, true);
      document.removeEventListener("click", onClick, true);
      document.removeEventListener("submit", cancel, true);
      window.removeEventListener("popstate", cancel);
    };
  }, [cancel]);

  // Any other navigation that starts (ours fires only once its timer is spent, so this ends no
  // search of ours).
  const leaving = navigation.state === "idle" ? null : navigation.location;
  useEffect(() => {
    if (leaving) cancel();
  }, [leaving, cancel]);

  return { submitSoon };
}
