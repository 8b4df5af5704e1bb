import { type MouseEvent, useEffect, useRef } from "react";
import { useNavigate, useSubmit } from "react-router";

/** Markup rendered on the server by `renderMarkup` (app/lib/server-markup.server.tsx). */
export type Markup = { __html: string };

/**
 * What the page does when an element of the markup marked `data-action="<name>"` is used: a
 * button or link clicked (a link's address is what works without JavaScript), a recording or
 * video started. The element is passed, with its `data-*` values.
 */
export type MarkupActions = Record<string, (element: HTMLElement) => void>;

/** The action of a link or button clicked (`selector` "a, button") or a player started. */
const actionOf = (target: EventTarget | null, selector: string, actions?: MarkupActions) => {
  const element =
    target instanceof Element ? target.closest<HTMLElement>(`:is(${selector})[data-action]`) : null;
  const act = element?.dataset.action ? actions?.[element.dataset.action] : undefined;
  return element && act ? () => act(element) : null;
};

/** A click that opens nothing new (no other button, no key held for a new tab or window). */
const plainClick = (event: MouseEvent) =>
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
  const box = useRef<HTMLDivElement>(null);
  const current = useRef(actions);
  current.current = actions;
  // "play" does not bubble (React listens on each player itself): caught on its way down.
  useEffect(() => {
    const element = box.current;
    const onPlay = (event: Event) => actionOf(event.target, "audio, video", current.current)?.();
    element?.addEventListener("play", onPlay, true);
    return () => element?.removeEventListener("play", onPlay, true);
  }, []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the handlers only take over the links and forms inside, which keep their own roles and keyboard use.
    // biome-ignore lint/a11y/useKeyWithClickEvents: a link followed with the keyboard fires this same click.
    <div
      ref={box}
      className={className}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our own server's render of our own components (React escapes every value in it).
      dangerouslySetInnerHTML={markup}
      onClick={(event) => {
        if (!plainClick(event)) return;
        const act = actionOf(event.target, "a, button", actions);
        if (act) {
          event.preventDefault();
          return act();
        }
        const link = followedLink(event);
        if (!link) return;
        event.preventDefault();
        navigate(link.pathname + link.search + link.hash, {
          preventScrollReset: link.hasAttribute("data-keep-scroll"),
        });
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
