import Plus from "lucide-react/icons/plus";
import X from "lucide-react/icons/x";
import { useEffect, useId, useRef, useState } from "react";
import { inputClasses } from "~/components/ui/input-classes";
import { useEarlyInput } from "~/lib/use-early-input";
import { useHydrated } from "~/lib/use-hydrated";
import { addChip, chipsFromForm, removeChip } from "./chips";

/**
 * A list typed one item at a time (Enter or Add), each removable. Every chip is sent as its own
 * field; the text still in the box is sent too, so nothing typed is lost. Without JavaScript it is
 * one comma-separated box.
 */
export function ChipInput({
  name,
  label,
  placeholder,
  initial,
}: {
  name: string;
  label: string;
  placeholder: string;
  initial: string[];
}) {
  const hydrated = useHydrated();
  const id = useId();
  const [chips, setChips] = useState(initial);
  const [draft, setDraft] = useState("");
  // What was typed in the comma-separated box before the page's scripts ran becomes the chips,
  // and the box that replaces it keeps the focus.
  const plainBox = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLInputElement>(null);
  const refocus = useRef(false);
  useEarlyInput(plainBox, (input) => {
    setChips(chipsFromForm([input.value]));
    refocus.current = document.activeElement === input;
  });
  useEffect(() => {
    if (hydrated && refocus.current) box.current?.focus();
  }, [hydrated]);
  const add = () => {
    setChips((list) => addChip(list, draft));
    setDraft("");
  };
  if (!hydrated) {
    return (
      <div>
        <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
          {label}
        </label>
        <input
          ref={plainBox}
          id={id}
          name={name}
          defaultValue={initial.join(", ")}
          placeholder={placeholder}
          className={inputClasses}
          aria-describedby={`${id}-hint`}
        />
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-500">
          Separate several with commas.
        </p>
      </div>
    );
  }
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          ref={box}
          id={id}
          name={name}
          value={draft}
          placeholder={placeholder}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
          className={inputClasses}
        />
        <button
          type="button"
          onClick={add}
          aria-label={`Add ${label.toLowerCase()}`}
          className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg border border-slate-300 bg-white text-slate-700 hover:bg-slate-50"
        >
          <Plus aria-hidden className="h-4 w-4" />
        </button>
      </div>
      {chips.length > 0 ? (
        <ul aria-label={`${label} added`} className="mt-2 flex flex-wrap gap-2">
          {chips.map((chip) => (
            <li
              key={chip}
              className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm text-brand-900"
            >
              {chip}
              <input type="hidden" name={name} value={chip} />
              <button
                type="button"
                aria-label={`Remove ${chip}`}
                onClick={() => setChips((list) => removeChip(list, chip))}
                className="inline-flex h-6 w-6 items-center justify-center rounded-full hover:bg-brand-100"
              >
                <X aria-hidden className="h-3.5 w-3.5" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
