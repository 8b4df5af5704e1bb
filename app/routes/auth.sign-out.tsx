import { redirect } from "react-router";
import { signOut } from "~/features/accounts/accounts.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/auth.sign-out";

export function loader() {
  // Signing out changes state: only by POST (a link or prefetch must not sign anyone out).
  return redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  try {
    const headers = await signOut(context, request);
    return redirectWithToast(
      "/",
      { title: "Signed out", description: "See you next time!" },
      { headers },
    );
  } catch (error) {
    context.logger.error({ err: error }, "sign-out failed");
    return redirectWithToast("/", {
      title: "Error",
      description: "Failed to sign out. Please try again.",
      variant: "destructive",
    });
  }
}
