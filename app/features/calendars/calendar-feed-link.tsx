import { Form } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { CopyField } from "~/components/ui/copy-field";
import type { FeedKind } from "./calendars.constants";

const TEXTS: Record<FeedKind, { title: string; about: string }> = {
  artist: {
    title: "Your calendar feed",
    about:
      "Subscribe to this private address in Google, Apple or Outlook calendar to see your bookings, requests and unavailable days there. It updates every 15 minutes. Anyone with the link can read it: reset it if it leaks.",
  },
  client: {
    title: "Your bookings calendar feed",
    about:
      "Subscribe to this private address in your calendar app to see your bookings there. It updates every 15 minutes. Anyone with the link can read it: reset it if it leaks.",
  },
};

/** A private feed's address with Copy and 'Reset link' (or 'Create link' before the first). */
export function CalendarFeedLink({ kind, url }: { kind: FeedKind; url: string | null }) {
  const text = TEXTS[kind];
  return (
    <section aria-labelledby={`feed-${kind}`} id="calendar-feed" className="space-y-3">
      <h3 id={`feed-${kind}`} className="font-medium">
        {text.title}
      </h3>
      <p className="text-sm text-slate-600">{text.about}</p>
      {url ? (
        <CopyField
          label="Feed address"
          value={url}
          mono
          compact
          buttonLabel="Copy feed address"
          copiedToast={{ title: "Copied!", description: "Calendar feed address copied." }}
        />
      ) : null}
      <Form method="post" action="/calendars">
        <input type="hidden" name="intent" value="reset-feed" />
        <input type="hidden" name="kind" value={kind} />
        <button type="submit" className={buttonClasses(url ? "outline" : "primary", "sm")}>
          {url ? "Reset link" : "Create link"}
        </button>
      </Form>
    </section>
  );
}
