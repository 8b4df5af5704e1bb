import { Children, type InputHTMLAttributes, type ReactNode, useId } from "react";
import { inputClasses, labelClasses } from "./input-classes";

/** What every labelled control shares: its label, an optional hint and error, both linked. */
export type FieldFrameProps = {
  label: string;
  /** The label stays for screen readers but is not shown (e.g. a filter next to a search box). */
  labelHidden?: boolean;
  error?: string;
  hint?: ReactNode;
};

/**
 * The ids of a control and of its hint and error, and the attributes that link them: the error is
 * announced with the control (aria-invalid, aria-describedby).
 */
export function useFieldIds(id: string | undefined, { error, hint }: FieldFrameProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const describedBy =
    [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return {
    controlId,
    errorId,
    hintId,
    controlProps: {
      id: controlId,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describedBy,
    },
  };
}

/** Label above, control, then hint and error below: the frame of Field, SelectField, TextareaField. */
export function FieldFrame({
  label,
  labelHidden,
  error,
  hint,
  ids,
  className,
  children,
}: FieldFrameProps & {
  ids: { controlId: string; errorId: string; hintId: string };
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={ids.controlId} className={labelHidden ? "sr-only" : labelClasses}>
        {label}
      </label>
      {children}
      {hint ? (
        <p id={ids.hintId} className="mt-1 text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={ids.errorId} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Splits a field's props into its frame (label, hint, error, wrapper class) and the props of its
 * control, the control already wired to the label, hint and error.
 */
export function useField<P extends FieldFrameProps & { id?: string; className?: string }>({
  label,
  labelHidden,
  error,
  hint,
  id,
  className,
  ...rest
}: P) {
  const { controlProps, ...ids } = useFieldIds(id, { label, error, hint });
  return {
    frame: { label, labelHidden, error, hint, ids, className },
    control: { ...controlProps, ...rest },
  };
}

/** A labelled input with its error announced and linked (aria-invalid, aria-describedby). */
export function Field(props: InputHTMLAttributes<HTMLInputElement> & FieldFrameProps) {
  const { frame, control } = useField(props);
  return (
    <FieldFrame {...frame}>
      <input {...control} className={inputClasses} />
    </FieldFrame>
  );
}

/**
 * A form-level error shown above the form. Not a live region itself: with JavaScript the same
 * message arrives as a toast (role="alert"), and one announcement is enough.
 */
export function FormError({ children }: { children?: ReactNode }) {
  // Nothing to say (no text, or only empty parts such as `{undefined}{false}`): no box.
  if (Children.toArray(children).every((part) => part === "")) return null;
  return (
    <p
      data-form-error
      className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700"
    >
      {children}
    </p>
  );
}
