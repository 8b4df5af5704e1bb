/**
 * The one way a domain function says no. It throws a `Problem` with a code (what kind of no) and
 * a message in plain words (why); an optional `reason` is a stable tag the UI may branch on, never
 * the message text. Routes turn a Problem into an HTTP answer with `statusOf` (see
 * `app/lib/form.server.ts`); the toast titles and other UI copy stay in the routes.
 */
const PROBLEM_STATUS = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  rate_limited: 429,
} as const;

export type ProblemCode = keyof typeof PROBLEM_STATUS;

export class Problem extends Error {
  override readonly name = "Problem";
  constructor(
    readonly code: ProblemCode,
    message: string,
    /** A stable tag for the UI to branch on, for example "email_not_confirmed". */
    readonly reason?: string,
    /** Field-level messages, when the problem belongs to particular inputs. */
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
  }
}

export const isProblem = (error: unknown): error is Problem => error instanceof Problem;

export const statusOf = (code: ProblemCode): number => PROBLEM_STATUS[code];

/** Throws a Problem: `refuse("conflict", "This date is booked.")`. */
export function refuse(
  code: ProblemCode,
  message: string,
  options: { reason?: string; fieldErrors?: Record<string, string> } = {},
): never {
  throw new Problem(code, message, options.reason, options.fieldErrors);
}
