import { useEffect } from "react";
import { useToast } from "~/components/ui/toast";
import type { ToastInput } from "./toast";

/** Shows a toast once for each new value (for example each action result). */
export function useToastOn(value: unknown, toast: ToastInput | null | undefined) {
  const push = useToast();
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per new result object, not per render.
  useEffect(() => {
    if (toast) push(toast);
  }, [value]);
}
