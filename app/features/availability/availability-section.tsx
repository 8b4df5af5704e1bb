import { useLocation } from "react-router";
import { Card } from "~/components/ui/card";
import {
  AvailabilityCalendar,
  type AvailabilityCalendarProps,
  calendarHref,
} from "./availability-calendar";

/**
 * The profile's "Availability" card: its calendar, with the `#book` anchor links point to. The
 * month arrows and tabs are links to this page with `?month=` or `?view=` set, scrolled back to
 * the card, so they work without JavaScript.
 */
export function AvailabilitySection(props: Omit<AvailabilityCalendarProps, "hrefs">) {
  const { search } = useLocation();
  return (
    <Card as="section" id="book" aria-labelledby="availability-title">
      <h2 id="availability-title" className="mb-4 text-lg font-semibold">
        Availability
      </h2>
      <AvailabilityCalendar
        {...props}
        hrefs={{
          month: (month) => calendarHref(search, "month", month, "book"),
          view: (view) => calendarHref(search, "view", view === "calendar" ? null : view, "book"),
        }}
      />
    </Card>
  );
}
