import {
  type ComponentType,
  createElement,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
} from "react";
import { withWholeStylesheet } from "~/lib/page-styles";
import { plainClick } from "./server-markup";

/**
 * Signs that someone is about to use a part: its code is fetched then. A click or a key pressed
 * in it is a use too (any key: in a box focused before the page's scripts ran, decision 024,
 * typing goes on with no `focusin`).
 */
const INTENT = ["pointerover", "touchstart", "focusin"];
/** What the part answers itself, held until it is hydrated when `answerable`. */
const HELD = ["click", "keydown"];
/** Keys the parts answer themselves (a date grid, tabs); every other key is the browser's. */
const HELD_KEYS = /^(Arrow|Home$|End$|Page)/;

/** A click or key press that the part would answer, had it been hydrated. */
function answerable(event: Event) {
  if (event instanceof KeyboardEvent) return HELD_KEYS.test(event.key);
  return plainClick(event as MouseEvent);
}

/**
 * Gives a held event to the part, now hydrated: a copy, sent from the same element (the held
 * event's own fields, such as key, button, modifiers and bubbles, are its init values). What was
 * clicked may be a drawing inside a link or button (an icon's <svg>), which has no `click()`.
 */
function replay(event: Event) {
  event.target?.dispatchEvent(
    event instanceof KeyboardEvent
      ? new KeyboardEvent("keydown", event)
      : new MouseEvent("click", event as MouseEvent),
  );
}

/** Runs `onReady` once what it sits beside in a Suspense boundary is hydrated or rendered. */
function Ready({ onReady }: { onReady: () => void }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the boundary is ready.
  useLayoutEffect(onReady, []);
  return null;
}

/** Shown only when rendered on the client (not while hydrating): fetches the code now. */
function Fetching({ start, children }: { start: () => unknown; children: ReactNode }) {
  useEffect(() => {
    start();
  }, [start]);
  return <>{children}</>;
}

/** A part of a page whose code waits for use: made once per module with `partOnUse`. */
type PartOnUse<P extends object> = {
  render: (props: P) => ReactNode;
  /** Marks the part as used and fetches its code; settles once the code is here. */
  start: () => Promise<unknown>;
  placeholder: ReactNode;
};

/**
 * A component whose code the browser fetches only when someone is about to use it (a pointer
 * over it, a touch, the keyboard focus), while the server's markup of it is already on the page
 * (decision 022). Shown with `<HydrateOnUse part={…} props={…} />`: React leaves that markup as it
 * is until the code arrives, then hydrates it. A click or key press the part answers that comes
 * first is held and given to it once it is hydrated; without JavaScript the markup's links and
 * forms work as they are.
 *
 * The part's code arrives together with the whole stylesheet (`withWholeStylesheet`): once
 * hydrated, it may draw what the page's own rules do not cover.
 *
 * The server renders the component at once. A page reached on the client has no markup to show
 * meanwhile: its route's `clientLoader` awaits `start()` beside the page's data, so the page
 * appears with the part (`placeholder` shows only if the code comes later than that).
 */
export function partOnUse<P extends object>(
  load: () => Promise<ComponentType<P>>,
  placeholder: ReactNode = null,
): PartOnUse<P> {
  if (import.meta.env.SSR) {
    // The server renders it at once (its bundle holds the code, loaded here at start-up): a part
    // that suspended would be sent as a fallback and swapped in by a script, so pages without
    // JavaScript would never show it.
    let loaded: ComponentType<P> | undefined;
    const loading = load().then((component) => {
      loaded = component;
      return { default: component };
    });
    const Pending = lazy(() => loading);
    return {
      render: (props) => createElement(loaded ?? Pending, props),
      start: () => loading,
      placeholder,
    };
  }
  let code: Promise<ComponentType<P>> | undefined;
  let markUsed = () => {};
  const used = new Promise<void>((resolve) => {
    markUsed = resolve;
  });
  const start = () => {
    markUsed();
    code ??= withWholeStylesheet(load());
    return code;
  };
  // Until `start` is called, React keeps the server's markup of the part (or shows `placeholder`).
  const Lazy = lazy(async () => {
    await used;
    return { default: await start() };
  });
  return { render: (props) => createElement(Lazy, props), start, placeholder };
}

export function HydrateOnUse<P extends object>({ part, props }: { part: PartOnUse<P>; props: P }) {
  const box = useRef<HTMLDivElement>(null);
  const held = useRef<Event | null>(null);
  const hydrated = useRef(false);
  const { render, start, placeholder } = part;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // On the window, before React's own listener on the document: React stops every event inside
    // a part that is not hydrated yet, so none reaches the part itself. A click or key press
    // that the part answers is held, not lost nor followed as a plain link.
    const use = (event: Event) => {
      if (hydrated.current || !element.contains(event.target as Node)) return;
      start();
      if (!HELD.includes(event.type) || !answerable(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      held.current = event;
    };
    const types = [...INTENT, ...HELD];
    for (const type of types) window.addEventListener(type, use, true);
    return () => {
      for (const type of types) window.removeEventListener(type, use, true);
    };
  }, [start]);

  const ready = () => {
    hydrated.current = true;
    const event = held.current;
    held.current = null;
    if (event) replay(event);
  };

  return (
    <div ref={box}>
      <Suspense fallback={<Fetching start={start}>{placeholder}</Fetching>}>
        {render(props)}
        <Ready onReady={ready} />
      </Suspense>
    </div>
  );
}
