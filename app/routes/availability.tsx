import { data } from "react-router";
import { z } from "zod";
import { fieldErrors } from "~/features/accounts/accounts.schema";
import { requireUser } from "~/features/accounts/accounts.server";
import { getArtistProfileOfUser } from "~/features/artists/artists.server";
import { clearAvailability, setAvailability } from "~/features/availability/availability.server";
import { formatLongDate, todayIn } from "~/lib/dates";
import type { Route } from "./+types/availability";

const AvailabilitySchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("set"),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Please choose a valid date"),
    status: z.enum(["available", "booked", "unavailable"], { message: "Please pick a status" }),
    notes: z
      .string()
      .trim()
      .max(300)
      .optional()
      .transform((v) => (v ? v : null)),
  }),
  z.object({
    intent: z.literal("clear"),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Please choose a valid date"),
  }),
]);

export function loader() {
  throw data(null, { status: 404 });
}

/** The artist's own calendar: set a day's status (replacing the old one) or clear it. */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const artist = await getArtistProfileOfUser(context.db, user.id);
  if (!artist) throw data(null, { status: 404 });
  const parsed = AvailabilitySchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success)
    return data({ ok: false as const, fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  const input = parsed.data;
  if (input.date < todayIn(context.env.timeZone)) {
    return data({ ok: false as const, formError: "Past dates can't be changed." }, { status: 400 });
  }
  if (input.intent === "set") {
    await setAvailability(context.db, artist.id, input.date, input.status, input.notes);
    return data({
      ok: true as const,
      toast: {
        title: "Availability Updated",
        description: `${formatLongDate(input.date)} marked as ${input.status}.`,
      },
    });
  }
  await clearAvailability(context.db, artist.id, input.date);
  return data({
    ok: true as const,
    toast: { title: "Availability Updated", description: `${formatLongDate(input.date)} cleared.` },
  });
}
