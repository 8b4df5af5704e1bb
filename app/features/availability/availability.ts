import { AVAILABILITY_STATUSES } from "~db/enums";

/** An artist's availability on one calendar day (see docs/product.md, Availability). */
export { AVAILABILITY_STATUSES };
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];

export type AvailabilityEntry = {
  /** Calendar date, `YYYY-MM-DD`. */
  date: string;
  status: AvailabilityStatus;
  notes: string | null;
  /** No mark of the artist's: the day shows what the booking rule says (see `shownDays`). */
  unmarked?: boolean;
  /** To the artist only: the imported calendars (by host) the day is busy in. */
  busyIn?: string[];
};

/** Why a day is not free, in the words the booking form uses (see `freeOnDateSql`). */
export type BusyStatus = "booked" | "unavailable";

export const STATUS_LABELS: Record<AvailabilityStatus, string> = {
  available: "Available",
  booked: "Booked",
  unavailable: "Unavailable",
};
