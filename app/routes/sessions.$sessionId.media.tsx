import { redirect } from "react-router";
import { requireUser } from "~/features/accounts/accounts.server";
import { DeleteMediaSchema } from "~/features/media/media.schema";
import { deleteMedia } from "~/features/media/media.server";
import { attempt, parseForm, readForm } from "~/lib/form.server";
import type { Route } from "./+types/sessions.$sessionId.media";

// Uploads stream to PUT /api/sessions/:sessionId/media (server/app.ts); this route removes media.

export function loader({ params }: Route.LoaderArgs) {
  throw redirect(`/sessions/${encodeURIComponent(params.sessionId)}?tab=media`);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const parsed = parseForm(DeleteMediaSchema, await readForm(request));
  if (!parsed.ok) return parsed.reply;
  return attempt(async () => {
    await deleteMedia(context, user, parsed.data.mediaId);
    // Back to the media tab, with or without JavaScript.
    return redirect(`/sessions/${encodeURIComponent(params.sessionId)}?tab=media`);
  });
}
