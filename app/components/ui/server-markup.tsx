import { createContext, type MouseEvent, useContext } from "react";
import { useNavigate, useSubmit } from "react-router";
import type { Markup } from "~/lib/markup";

/** The server render's markup of this page, by key (see `AppContext.pageMarkup`). */
export const PageMarkupContext = createContext<ReadonlyMap<string, string> | undefined>(undefined);

/**
 * A box's markup as it arrived in the page, by key (`m0`, `m1`…, see `renderMarkup`). React is
 * given an object standing for it: hydrating a box, React keeps its content as it is and never
 * reads the object, and later renders pass the same object, so React writes nothing. Only when
 * React makes a box anew (shown again, or a failed hydration rendered again on the client) does it
 * turn the object into text, read from the box that arrived. Reading every box's markup before
 * hydration cost up to tens of milliseconds on a slow device (serialising the page).
 */
const arrived = new Map<string, { toString(): string }>();

function arrivedMarkup(key: string): { toString(): string } {
  let markup = arrived.get(key);
  if (!markup) {
    const box = document.querySelector(`[data-markup="${key}"]`);
    markup = { toString: () => box?.innerHTML ?? "" };
    arrived.set(key, markup);
  }
  return markup;
}

function useMarkupHtml(markup: Markup): { html: string | { toString(): string }; key?: string } {
  const onServer = useContext(PageMarkupContext);
  if ("__html" in markup) return { html: markup.__html };
  if (onServer || import.meta.env.SSR) {
    return { html: onServer?.get(markup.key) ?? "", key: markup.key };
  }
  return { html: arrivedMarkup(markup.key), key: markup.key };
}

/**
 * What the page does when an element of the markup marked `data-action="<name>"` is clicked: a
 * button, or a link (its address is what works without JavaScript). The element is passed, with
 * its `data-*` values.
 */
export type MarkupActions = Record<string, (element: HTMLElement) => void>;

/** The action of a link or button clicked. */
const actionOf = (target: EventTarget | null, actions?: MarkupActions) => {
  const element =
    target instanceof Element ? target.closest<HTMLElement>(":is(a, button)[data-action]") : null;
  const act = element?.dataset.action ? actions?.[element.dataset.action] : undefined;
  return element && act ? { element, run: () => act(element) } : null;
};

/** A click that opens nothing new (no other button, no key held for a new tab or window). */
export const plainClick = (
  event: Pick<
    MouseEvent,
    "defaultPrevented" | "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey"
  >,
) =>
  !event.defaultPrevented &&
  event.button === 0 &&
  !(event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);

/** A link of this site that the page should follow itself, or null. */
function followedLink(event: MouseEvent<HTMLElement>): HTMLAnchorElement | null {
  const link = (event.target as Element).closest("a[href]");
  if (!(link instanceof HTMLAnchorElement) || !event.currentTarget.contains(link)) return null;
  if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return null;
  if (link.origin !== window.location.origin) return null;
  // A jump within the page ("#book") is the browser's own.
  const here = window.location;
  if (link.hash && link.pathname === here.pathname && link.search === here.search) return null;
  return link;
}

/**
 * Shows markup the server rendered, as it is: the components that drew it never reach the browser
 * and are never hydrated (decision 022). Links and forms in it still work like React Router's
 * `<Link>` and `<Form>`: followed and submitted on the client, without reloading the page, and as
 * plain links and forms before the scripts have run.
 */
export function ServerMarkup({
  markup,
  className,
  actions,
}: {
  markup: Markup;
  className?: string;
  actions?: MarkupActions;
}) {
  const navigate = useNavigate();
  const submit = useSubmit();
  const { html, key } = useMarkupHtml(markup);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the handlers only take over the links and forms inside, which keep their own roles and keyboard use.
    // biome-ignore lint/a11y/useKeyWithClickEvents: a link followed with the keyboard fires this same click.
    <div
      className={className}
      data-markup={key}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our own server's render of our own components (React escapes every value in it).
      dangerouslySetInnerHTML={{ __html: html }}
      onClick={(event) => {
        if (!plainClick(event)) return;
        const action = actionOf(event.target, actions);
        if (action) {
          // A link's address is for browsers without JavaScript; a button keeps what it does
          // natively (an invoker command, say).
          if (action.element instanceof HTMLAnchorElement) event.preventDefault();
          return action.run();
        }
        const link = followedLink(event);
        if (!link) return;
        event.preventDefault();
        navigate(link.pathname + link.search + link.hash);
      }}
      onSubmit={(event) => {
        const form = event.target as HTMLFormElement;
        if (form.target && form.target !== "_self") return;
        event.preventDefault();
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        submit(submitter instanceof HTMLButtonElement ? submitter : form);
      }}
    />
  );
}
