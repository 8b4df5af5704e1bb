import type { SelectHTMLAttributes } from "react";
import { FieldFrame, type FieldFrameProps, useField } from "./field";
import { inputClasses } from "./input-classes";

/**
 * A labelled native select, wired like Field (error and hint linked, aria-invalid). Pass the
 * <option>s as children; `className` sizes the whole field (e.g. "sm:w-44").
 */
export function SelectField(props: SelectHTMLAttributes<HTMLSelectElement> & FieldFrameProps) {
  const { frame, control } = useField(props);
  return (
    <FieldFrame {...frame}>
      <select {...control} className={inputClasses} />
    </FieldFrame>
  );
}
