import { data } from "react-router";
import type { z } from "zod";
import type { FieldErrors, FormReply } from "./form";
import type { Logger } from "./logger.server";
import { isProblem, type Problem, statusOf } from "./problem";
import type { ToastInput } from "./toast";
import { redirectWithToast } from "./toast.server";

/** Field names whose values are never echoed back into a page. */
const SECRET_FIELD = /password|token|secret/i;

const NUL_MESSAGE = "This field contains a character we can't accept. Please retype it.";

/**
 * The request's form body. Anything that is not a form (JSON, text, a broken multipart body)
 * is answered 415 or 400 with a plain message and reaches no domain code.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(type)) {
    throw data<FormReply>(
      { ok: false, formError: "Please send this as a form (URL-encoded or multipart)." },
      { status: 415 },
    );
  }
  try {
    return await request.formData();
  } catch {
    throw data<FormReply>(
      { ok: false, formError: "We couldn't read this form. Please try again." },
      { status: 400 },
    );
  }
}

/** Zod issues as one message per field (the first one), keyed by the field's path. */
function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "form";
    out[key] ??= issue.message;
  }
  return out;
}

/**
 * What was typed, for refilling the form: strings only, never passwords or tokens. A key posted
 * more than once (a group of checkboxes) keeps its values one per line.
 */
export function typedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value !== "string" || SECRET_FIELD.test(key)) continue;
    const earlier = values[key];
    values[key] = (earlier === undefined ? value : `${earlier}\n${value}`).slice(0, 5000);
  }
  return values;
}

/** A form as a plain object: a key given twice becomes an array; files stay files. */
function formObject(form: FormData): Record<string, FormDataEntryValue | FormDataEntryValue[]> {
  const out: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key);
    out[key] = all.length > 1 ? all : (all[0] as FormDataEntryValue);
  }
  return out;
}

type Parsed<T> =
  | { ok: true; data: T; values: Record<string, string> }
  | {
      ok: false;
      /** Return it from the action: a 400 with field errors and the typed values. */
      reply: ReturnType<typeof replyInvalid>;
    };

/**
 * Validates a form with the schema its page uses. A NUL byte in any field is refused here, where
 * input enters, so it never reaches the database.
 */
export function parseForm<S extends z.ZodType>(
  schema: S,
  form: FormData,
  toast?: ToastInput,
): Parsed<z.output<S>> {
  const values = typedValues(form);
  const nul: FieldErrors = {};
  for (const [key, value] of form) {
    if (typeof value === "string" && value.includes("\u0000")) nul[key] ??= NUL_MESSAGE;
  }
  if (Object.keys(nul).length > 0) return { ok: false, reply: replyInvalid(nul, values, toast) };
  const parsed = schema.safeParse(formObject(form));
  if (!parsed.success)
    return { ok: false, reply: replyInvalid(fieldErrorsOf(parsed.error), values, toast) };
  return { ok: true, data: parsed.data, values };
}

/** 400 with field errors and what was typed. */
export function replyInvalid(
  fieldErrors: FieldErrors,
  values?: Record<string, string>,
  toast?: ToastInput,
) {
  const formError = fieldErrors.form;
  return data<FormReply>({ ok: false, fieldErrors, values, toast, formError }, { status: 400 });
}

/** Success that stays on the page (a fetcher or an inline confirmation). */
export function replyOk<T = undefined>(
  value?: T,
  init: { toast?: ToastInput; headers?: HeadersInit } = {},
) {
  return data<FormReply<T>>(
    { ok: true, value, toast: init.toast },
    init.headers ? { headers: init.headers } : undefined,
  );
}

/** A refusal in plain words, with the status its code maps to. */
export function replyProblem(
  problem: Problem,
  init: { values?: Record<string, string>; toast?: ToastInput; headers?: HeadersInit } = {},
) {
  return data<FormReply>(
    {
      ok: false,
      formError: problem.message,
      fieldErrors: problem.fieldErrors,
      reason: problem.reason,
      values: init.values,
      toast: init.toast,
    },
    { status: statusOf(problem.code), headers: init.headers },
  );
}

/** A form-level refusal that is not a domain problem (for example an unknown intent). */
export function replyError(status: number, formError: string, toast?: ToastInput) {
  return data<FormReply>({ ok: false, formError, toast }, { status });
}

/** What an action says when it fails for a reason that is not the user's (the database down). */
type Failure = {
  /** The route's words for it, shown in the form and in a toast. */
  message: string;
  /** The toast's title; "Error" when not given. */
  title?: string;
  /** Where the cause is logged, with `event` as the log line. */
  logger: Pick<Logger, "error">;
  event: string;
};

/**
 * The reply to an action that failed for a reason that is not the user's: the cause is logged,
 * the form says the route's words for it and keeps what was typed (also without JavaScript).
 * A 500: the request was good, and we failed it.
 */
export function replyFailure(error: unknown, failure: Failure, values?: Record<string, string>) {
  failure.logger.error({ err: error }, failure.event);
  return data<FormReply>(
    {
      ok: false,
      formError: failure.message,
      values,
      toast: {
        title: failure.title ?? "Error",
        description: failure.message,
        variant: "destructive",
      },
    },
    { status: 500 },
  );
}

/**
 * A thrown value that is a failure: not a redirect or a 404 page passing through (React Router's
 * responses are not Errors), not a domain refusal.
 */
const isFailure = (error: unknown): error is Error => error instanceof Error && !isProblem(error);

/** What `attempt` does with a refusal (a Problem) and a failure (any other error). */
type AttemptOptions = {
  /** What was typed, given back with the refusal or the failure. */
  values?: Record<string, string>;
  /** A toast over the refusal's message with this title (none when not given). */
  toastTitle?: string | ((problem: Problem) => string | undefined);
  /** Toast in place: the refusal's toast in the route's own words instead (toastTitle's ignored). */
  toast?: ToastInput;
  /**
   * "page" (the default): `not_found` throws the 404 page, as not yours looks like not there.
   * "reply": it is answered on the page like any refusal, for a fetcher whose page must stay up
   * when what it changed went meanwhile (still a 404 status).
   */
  notFound?: "page" | "reply";
  /**
   * Reply in place: the route answers each refusal itself, by its reason, `not_found` included
   * (then `toastTitle`, `toast` and `notFound` are not used).
   */
  reply?: (problem: Problem) => ReturnType<typeof replyProblem>;
  /**
   * Redirect back: a refusal other than `not_found` goes to this address (303) with its toast,
   * so a form posted from another page answers there, also without JavaScript.
   */
  redirectTo?: string;
  /** Any other error is answered by `replyFailure` instead of the error page. */
  failure?: Failure;
};

/**
 * Runs an action's domain call. A Problem becomes the reply for its code: `not_found` throws a
 * 404 page (not yours looks like not there), others answer the form with the message and, when
 * given, a toast whose title the route chooses. With `failure`, any other error is answered by
 * `replyFailure` instead of the error page, so what was typed is not lost. The options above
 * change where a refusal is answered; everything else passes through.
 */
export async function attempt<T>(
  run: () => Promise<T>,
  options: AttemptOptions & { redirectTo: string },
): Promise<T | Response | ReturnType<typeof replyProblem>>;
export async function attempt<T>(
  run: () => Promise<T>,
  options?: AttemptOptions & { redirectTo?: undefined },
): Promise<T | ReturnType<typeof replyProblem> | ReturnType<typeof replyFailure>>;
export async function attempt<T>(run: () => Promise<T>, options: AttemptOptions = {}) {
  try {
    return await run();
  } catch (error) {
    if (options.failure && isFailure(error))
      return replyFailure(error, options.failure, options.values);
    if (!isProblem(error)) throw error;
    if (options.reply) return options.reply(error);
    if (error.code === "not_found" && options.notFound !== "reply")
      throw data(null, { status: 404 });
    const title =
      typeof options.toastTitle === "function" ? options.toastTitle(error) : options.toastTitle;
    const toast: ToastInput | undefined =
      options.toast ??
      (title ? { title, description: error.message, variant: "destructive" } : undefined);
    if (options.redirectTo)
      return redirectWithToast(options.redirectTo, toast ?? { title: error.message }, {
        status: 303,
      });
    return replyProblem(error, { values: options.values, toast });
  }
}

/** A loader's answer when the thing is missing or not the viewer's: the 404 page. */
export function notFound(): never {
  throw data(null, { status: 404 });
}

/**
 * A resource route's answer when the thing is missing (a feed, a CV, a status list): 404 in plain
 * text, the sentence saying what is missing, never stored by a cache (it may exist a minute later).
 */
export function notFoundText(message = "Not found"): Response {
  return new Response(`${message}\n`, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
