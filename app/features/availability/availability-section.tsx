import { Card } from "~/components/ui/card";
import { AvailabilityCalendar, type AvailabilityCalendarProps } from "./availability-calendar";

/** The profile's "Availability" card: its calendar, with the `#book` anchor links point to. */
export function AvailabilitySection(props: AvailabilityCalendarProps) {
  return (
    <Card as="section" id="book" aria-labelledby="availability-title">
      <h2 id="availability-title" className="mb-4 text-lg font-semibold">
        Availability
      </h2>
      <AvailabilityCalendar {...props} />
    </Card>
  );
}
