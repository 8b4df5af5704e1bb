/** What the embedded provider's parts share: its settings, Razorpay's refusals, the HTML page. */
import type { Context } from "hono";
import type { z } from "zod";
import type { Queryable } from "~db/client";
import { isLoopbackUrl, type WebhookHold, type WebhookTarget } from "./webhooks";

/** One fake's settings and state, handed to each group of routes. */
export type Psp = {
  db: Queryable;
  keySecret: string;
  /** Where and how webhooks are sent; undefined: none are. */
  target: WebhookTarget | undefined;
  hold: WebhookHold;
  /** The fake's time. */
  now: () => Date;
};

/** Razorpay's error body. */
export class PspError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409,
    readonly description: string,
    readonly field: string | null = null,
  ) {
    super(description);
  }
}

export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new PspError(400, "The request body is not valid JSON");
  }
}

/** The body parsed with `schema`, or Razorpay's 400 naming the first field at fault. */
export async function readBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const input = schema.safeParse((await readJson(c)) ?? {});
  if (!input.success) {
    const issue = input.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw new PspError(400, `${field || "The request"}: ${issue?.message ?? "is invalid"}`, field);
  }
  return input.data;
}

/**
 * The fake's own absolute address as the request reached it (`http://host:port/dev/psp`): what a
 * Payment Link's `short_url` starts with, wherever the fake is mounted.
 */
export function fakeBase(c: Context): string {
  const url = new URL(c.req.url);
  const match = /^(.*?)\/(?:v1|v2|pay|checkout|_control)(?:\/|$)/.exec(url.pathname);
  return `${url.origin}${match?.[1] ?? ""}`;
}

/** A path on the app's own origin, or null: the checkout never sends anyone elsewhere. */
export function sameOriginPath(given: string | undefined, requestUrl: string): string | null {
  if (typeof given !== "string" || !given.startsWith("/") || /^\/[/\\]/.test(given)) return null;
  if (/[\s\\]/.test(given)) return null;
  const base = new URL(requestUrl);
  const url = new URL(given, base);
  return url.origin === base.origin ? `${url.pathname}${url.search}` : null;
}

/**
 * Where a payer may be sent back to, or null: a path on the app's own origin, an absolute address
 * on that origin (as a path), or an absolute address on this machine (loopback, as it is).
 * Anything else is never redirected to: the result is shown on the page instead.
 */
export function callbackTarget(given: string | null | undefined, requestUrl: string) {
  if (typeof given !== "string" || given === "") return null;
  const path = sameOriginPath(given, requestUrl);
  if (path) return path;
  if (!/^https?:\/\//i.test(given) || /[\s\\]/.test(given)) return null;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    return null;
  }
  if (url.origin === new URL(requestUrl).origin) return `${url.pathname}${url.search}`;
  return isLoopbackUrl(given) ? url.href : null;
}

/** The callback with these query parameters added, relative when it was a path. */
export function withQuery(target: string, requestUrl: string, params: Record<string, string>) {
  const url = new URL(target, requestUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return target.startsWith("/") ? `${url.pathname}${url.search}` : url.href;
}

export function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en-IN">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · test payments</title></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>Test payments on this computer: no money moves.</p>
${body}
</body>
</html>`;
}

export function escapeHtml(text: string) {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );
}
