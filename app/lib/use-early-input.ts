import { type RefObject, useLayoutEffect, useRef } from "react";

/**
 * A page's scripts start after its first paint (decision 024), so a person can pick, tick or type
 * before React owns a control. Hydration leaves the control as they left it, but state set up in
 * the render does not know, and the next render would put the state's value back. This hands the
 * element, once, to `adopt` in the hydration's own commit (before any later render), so the state
 * can take what the person did. On a page reached on the client it simply reads the initial value.
 */
export function useEarlyInput<E extends HTMLElement>(
  ref: RefObject<E | null>,
  adopt: (element: E) => void,
) {
  const adoptOnce = useRef(adopt);
  useLayoutEffect(() => {
    if (ref.current) adoptOnce.current(ref.current);
  }, [ref]);
}

/** The value of the radio picked in `group`, if any. */
export function pickedRadio(group: HTMLElement): string | undefined {
  return group.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.value;
}

/** The text `form` holds in its field `name` ("" when it has none). */
export function fieldText(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === "string" ? value : "";
}
