import { useEffect } from "react";
import { useRevalidator } from "react-router";

/** Reloads the page's data every `ms` while the tab is visible (the diagnostics' 5-second refresh). */
export function useIntervalRevalidation(ms: number) {
  const revalidator = useRevalidator();
  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") {
        void revalidator.revalidate();
      }
    }, ms);
    return () => clearInterval(id);
  }, [ms, revalidator]);
}
