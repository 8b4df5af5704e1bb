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
import { plainClick } from "./server-markup";

/** Signs that someone is about to use a part: its code is fetched then. */
const INTENT = ["pointerover", "touchstart", "focusin"] as const;
/** Keys the parts answer themselves (a date grid, tabs); every other key is the browser's. */
const HELD_KEYS = /^(Arrow|Home$|End$|Page)/;

/** A click or key press that the part would answer, had it been hydrated. */
function answerable(event: Event) {
  if (event instanceof KeyboardEvent) return HELD_KEYS.test(event.key);
  return plainClick(event as MouseEvent);
}

/** Gives a held event to the part, now hydrated. */
function replay(event: Event) {
  const target = event.target as HTMLElement;
  if (!(event instanceof KeyboardEvent)) return target.click();
  const { key, code, shiftKey, ctrlKey, altKey, metaKey } = event;
  target.dispatchEvent(
    new KeyboardEvent("keydown", {
      key,
      code,
      shiftKey,
      ctrlKey,
      altKey,
      metaKey,
      bubbles: true,
      cancelable: true,
    }),
  );
}

/** Runs `onReady` once what it sits beside in a Suspense boundary is hydrated or rendered. */
function Ready({ onReady }: { onReady: () => void }) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the boundary is ready.
  useLayoutEffect(onReady, []);
  return null;
}

/** Shown only when rendered on the client (not while hydrating): fetches the code now. */
function Fetching({ start, children }: { start: () => void; children: ReactNode }) {
  useEffect(start, [start]);
  return <>{children}</>;
}

/** A part of a page whose code waits for use: made once per module with `partOnUse`. */
export type PartOnUse<P extends object> = {
  render: (props: P) => ReactNode;
  start: () => void;
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
 * The server renders the component at once; a page reached on the client fetches its code at
 * once too (there is no markup to show meanwhile, so `placeholder` is shown).
 */
export function partOnUse<P extends object>(
  load: () => Promise<ComponentType<P>>,
  placeholder: ReactNode = null,
): PartOnUse<P> {
  let start = () => {};
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
    return { render: (props) => createElement(loaded ?? Pending, props), start, placeholder };
  }
  const used = new Promise<void>((resolve) => {
    start = resolve;
  });
  const Lazy = lazy(async () => {
    await used;
    return { default: await load() };
  });
  return { render: (props) => createElement(Lazy, props), start: () => start(), placeholder };
}

export function HydrateOnUse<P extends object>({ part, props }: { part: PartOnUse<P>; props: P }) {
  const box = useRef<HTMLDivElement>(null);
  const held = useRef<Event | null>(null);
  const hydrated = useRef(false);
  const { render, start, placeholder } = part;

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // Before React's own listener (on the document): a click or key press inside a part that is
    // not hydrated yet is held, not lost (React would drop it) nor followed as a plain link.
    const hold = (event: Event) => {
      if (hydrated.current || !element.contains(event.target as Node)) return;
      if (!answerable(event)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      held.current = event;
      start();
    };
    for (const type of INTENT) element.addEventListener(type, start, { passive: true });
    window.addEventListener("click", hold, true);
    window.addEventListener("keydown", hold, true);
    return () => {
      for (const type of INTENT) element.removeEventListener(type, start);
      window.removeEventListener("click", hold, true);
      window.removeEventListener("keydown", hold, true);
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
