import X from "lucide-react/icons/x";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from "react";
import type { ToastInput } from "~/lib/toast";

type ToastItem = ToastInput & { id: number };

const ToastContext = createContext<((toast: ToastInput) => void) | null>(null);

const TOAST_MS = 5000;

/** The one toast mechanism: `useToast()(…)` in components, `redirectWithToast` in actions. */
export function ToastProvider({
  children,
  initial,
}: {
  children: ReactNode;
  initial?: ToastInput | null;
}) {
  // The toast a redirect left is rendered on the server too, so it shows without JavaScript.
  const [toasts, setToasts] = useState<ToastItem[]>(() => (initial ? [{ ...initial, id: 0 }] : []));
  const nextId = useRef(1);
  const rendered = useRef(initial ?? null);

  const dismiss = useCallback(
    (id: number) => setToasts((list) => list.filter((t) => t.id !== id)),
    [],
  );
  const push = useCallback(
    (toast: ToastInput) => {
      const id = nextId.current++;
      setToasts((list) => [...list.slice(-2), { ...toast, id }]);
      setTimeout(() => dismiss(id), TOAST_MS);
    },
    [dismiss],
  );

  // A toast sent by the server with a redirect (flash cookie) arrives through the root loader:
  // the first one is already on the page; later ones come with client-side navigations.
  useEffect(() => {
    if (initial && initial !== rendered.current) push(initial);
    rendered.current = initial ?? null;
  }, [initial, push]);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(0), TOAST_MS);
    return () => clearTimeout(timer);
  }, [dismiss]);

  return (
    <ToastContext.Provider value={push}>
      {children}
      <section
        aria-label="Notifications"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex flex-col items-center gap-2 p-4 sm:items-end"
      >
        <div role="status" aria-live="polite" className="contents">
          {toasts
            .filter((t) => t.variant !== "destructive")
            .map((t) => (
              <ToastCard key={t.id} toast={t} onDismiss={() => dismiss(t.id)} />
            ))}
        </div>
        <div role="alert" className="contents">
          {toasts
            .filter((t) => t.variant === "destructive")
            .map((t) => (
              <ToastCard key={t.id} toast={t} onDismiss={() => dismiss(t.id)} />
            ))}
        </div>
      </section>
    </ToastContext.Provider>
  );
}

function ToastCard({ toast, onDismiss }: { toast: ToastItem; onDismiss: () => void }) {
  const destructive = toast.variant === "destructive";
  return (
    <div
      data-testid="toast"
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border p-4 shadow-lg ${
        destructive
          ? // White on red-700 is 6.4:1; on red-600 it was 4.8:1, and 4.0:1 at 90 % opacity.
            "border-red-800 bg-red-700 text-white"
          : "border-slate-200 bg-white text-slate-900"
      }`}
    >
      <div className="flex-1">
        <p className="font-semibold">{toast.title}</p>
        {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label="Dismiss notification"
        className="rounded p-1 opacity-70 hover:opacity-100"
      >
        <X aria-hidden className="h-4 w-4" />
      </button>
    </div>
  );
}

export function useToast() {
  const push = useContext(ToastContext);
  if (!push) throw new Error("useToast must be used within a ToastProvider");
  return push;
}
