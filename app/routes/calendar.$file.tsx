import { renderFeed } from "~/features/calendars/feeds.server";
import { notFoundText } from "~/lib/form.server";
import type { Route } from "./+types/calendar.$file";

const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

/**
 * A private calendar feed (`/calendar/{token}.ics`): the token is the key, so there is no
 * sign-in. An unknown or reset token answers 404 like any missing page, in plain text.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const token = FEED_FILE.exec(params.file ?? "")?.[1];
  const body = token ? await renderFeed(context, token) : null;
  if (body === null) {
    return notFoundText();
  }
  return new Response(body, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
      "referrer-policy": "no-referrer",
    },
  });
}
