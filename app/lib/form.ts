import type { ToastInput } from "./toast";

export type FieldErrors = Record<string, string>;

/**
 * The one shape every action answers with (built by `app/lib/form.server.ts`). Components read it
 * as `actionData` or `fetcher.data` without casts: `formError` above the form, `fieldErrors` beside
 * each input, `values` to refill what was typed (also without JavaScript), `reason` to branch on a
 * particular refusal, `toast` for the toast mechanism, and `value` for whatever a success returns.
 */
export type FormReply<T = undefined> = {
  ok: boolean;
  formError?: string;
  fieldErrors?: FieldErrors;
  values?: Record<string, string>;
  reason?: string;
  toast?: ToastInput;
  value?: T;
};
