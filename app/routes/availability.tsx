import { requireUser } from "~/features/accounts/accounts.server";
import { AvailabilitySchema } from "~/features/availability/availability.schema";
import { clearAvailability, setAvailability } from "~/features/availability/availability.server";
import { formatLongDate, isIsoMonth } from "~/lib/dates";
import { attempt, notFound, parseForm, readForm, replyOk } from "~/lib/form.server";
import { isProblem } from "~/lib/problem";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/availability";

export function loader() {
  notFound();
}

/**
 * Where the Schedule tab's form (without JavaScript) goes back to, on the month it showed; null
 * for the calendar's own requests (with JavaScript), which stay on the page.
 */
function pageToGoBackTo(form: FormData) {
  if (form.get("back") !== "schedule") return null;
  const month = String(form.get("month") ?? "");
  return `/artist-dashboard?tab=schedule${isIsoMonth(month) ? `&month=${month}` : ""}#schedule`;
}

/**
 * The artist's own calendar: set a day's status (replacing the old one) or clear it. The Schedule
 * tab's calendar sends each click with JavaScript and stays; without it, its form (a day's button
 * submits, 'Clear' is one of the statuses) is answered with the page and a toast.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  if (form.get("status") === "clear") form.set("intent", "clear");
  const back = pageToGoBackTo(form);
  const parsed = parseForm(AvailabilitySchema, form);
  if (!parsed.ok) {
    if (!back) return parsed.reply;
    const message = Object.values(parsed.reply.data.fieldErrors ?? {})[0] ?? "Please try again.";
    return redirectWithToast(back, failed(message), { status: 303 });
  }
  const change = parsed.data;
  const toast = {
    title: "Availability Updated",
    description:
      change.intent === "set"
        ? `${formatLongDate(change.date)} marked as ${change.status}.`
        : `${formatLongDate(change.date)} cleared.`,
  };
  const save = () =>
    change.intent === "set"
      ? setAvailability(context, user, change)
      : clearAvailability(context, user, change);
  if (back) {
    try {
      await save();
    } catch (error) {
      if (!isProblem(error)) throw error;
      if (error.code === "not_found") notFound();
      return redirectWithToast(back, failed(error.message), { status: 303 });
    }
    return redirectWithToast(back, toast, { status: 303 });
  }
  return attempt(
    async () => {
      await save();
      return replyOk(undefined, { toast });
    },
    { values: parsed.values },
  );
}

const failed = (description: string) =>
  ({ title: "Error", description, variant: "destructive" }) as const;
