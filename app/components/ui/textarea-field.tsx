import type { TextareaHTMLAttributes } from "react";
import { FieldFrame, type FieldFrameProps, useField } from "./field";
import { inputClasses } from "./input-classes";

/** A labelled textarea, wired like Field. */
export function TextareaField(
  props: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldFrameProps,
) {
  const { frame, control } = useField(props);
  return (
    <FieldFrame {...frame}>
      <textarea {...control} className={`${inputClasses} min-h-28`} />
    </FieldFrame>
  );
}
