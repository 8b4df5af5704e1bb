import { requireUser } from "~/features/accounts/accounts.server";
import { AvailabilitySchema } from "~/features/availability/availability.schema";
import { clearAvailability, setAvailability } from "~/features/availability/availability.server";
import { formatLongDate } from "~/lib/dates";
import { attempt, notFound, parseForm, readForm, replyOk } from "~/lib/form.server";
import type { Route } from "./+types/availability";

export function loader() {
  notFound();
}

/** The artist's own calendar: set a day's status (replacing the old one) or clear it. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const parsed = parseForm(AvailabilitySchema, form);
  if (!parsed.ok) return parsed.reply;
  const change = parsed.data;
  return attempt(
    async () => {
      if (change.intent === "set") {
        await setAvailability(context, user, change);
        return replyOk(undefined, {
          toast: {
            title: "Availability Updated",
            description: `${formatLongDate(change.date)} marked as ${change.status}.`,
          },
        });
      }
      await clearAvailability(context, user, change);
      return replyOk(undefined, {
        toast: {
          title: "Availability Updated",
          description: `${formatLongDate(change.date)} cleared.`,
        },
      });
    },
    { values: parsed.values },
  );
}
