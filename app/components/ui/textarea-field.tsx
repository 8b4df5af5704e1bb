import type { TextareaHTMLAttributes } from "react";
import { FieldFrame, type FieldFrameProps, inputClasses, useField } from "./field";

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
