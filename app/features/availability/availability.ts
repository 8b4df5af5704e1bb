/** Availability of an artist on one calendar day (spec 2.11, 4.2). */
export const AVAILABILITY_STATUSES = ["available", "booked", "unavailable"] as const;
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

export function isAvailabilityStatus(value: unknown): value is AvailabilityStatus {
  return typeof value === "string" && (AVAILABILITY_STATUSES as readonly string[]).includes(value);
}
