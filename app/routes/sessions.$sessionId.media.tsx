import { data, redirect } from "react-router";
import { requireUser } from "~/features/accounts/accounts.server";
import { deleteMedia } from "~/features/media/media.server";
import type { Route } from "./+types/sessions.$sessionId.media";

// Uploads stream to PUT /api/sessions/:sessionId/media (server/app.ts); this route removes media.

export function loader({ params }: Route.LoaderArgs) {
  throw redirect(`/sessions/${encodeURIComponent(params.sessionId)}?tab=media`);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  if (form.get("intent") !== "delete-media") return data({ ok: false }, { status: 400 });
  const deleted = await deleteMedia(
    context.db,
    context.storage,
    user,
    String(form.get("mediaId") ?? ""),
  );
  if (!deleted) throw data(null, { status: 404 });
  // Back to the media tab, with or without JavaScript.
  return redirect(`/sessions/${params.sessionId}?tab=media`);
}
