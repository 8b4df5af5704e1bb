import { createCookie, redirect } from "react-router";
import { z } from "zod";
import type { ToastInput } from "./toast";

const ToastSchema = z.object({
  title: z.string().max(200),
  description: z.string().max(500).optional(),
  variant: z.enum(["default", "destructive"]).optional(),
});

const toastCookie = createCookie("gl_toast", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 60,
});

/** Redirects and shows a toast on the next page, also without JavaScript. */
export async function redirectWithToast(url: string, toast: ToastInput, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastCookie.serialize(toast));
  return redirect(url, { ...init, headers });
}

/** Reads (and clears) the toast a previous response left. */
export async function getToast(
  request: Request,
): Promise<{ toast: ToastInput | null; headers: Headers }> {
  const raw = await toastCookie.parse(request.headers.get("Cookie"));
  const headers = new Headers();
  if (raw === null || raw === undefined) return { toast: null, headers };
  headers.append("Set-Cookie", await toastCookie.serialize("", { maxAge: 0 }));
  const parsed = ToastSchema.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, headers };
}
