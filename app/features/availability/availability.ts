import { AVAILABILITY_STATUSES } from "~db/enums";

/** An artist's availability on one calendar day (see docs/product.md, Availability). */
export { AVAILABILITY_STATUSES };
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];

export type AvailabilityEntry = {
  /** Calendar date, `YYYY-MM-DD`. */
  date: string;
  status: AvailabilityStatus;
  notes: string | null;
};

export const STATUS_LABELS: Record<AvailabilityStatus, string> = {
  available: "Available",
  booked: "Booked",
  unavailable: "Unavailable",
};
