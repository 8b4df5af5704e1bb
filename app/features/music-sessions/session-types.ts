import type { SESSION_TYPES } from "~db/schema";

/** Labels only (no Zod), so the public session list stays light. */
export type SessionType = (typeof SESSION_TYPES)[number];

export const SESSION_TYPE_LABELS: Record<SessionType, string> = {
  performance: "Performance",
  practice: "Practice",
  jam: "Jam Session",
  recording: "Recording",
};

/** The list's type filter: all types, or one. */
export const SESSION_FILTERS = [
  { value: "", label: "All Types" },
  { value: "performance", label: "Performances" },
  { value: "practice", label: "Practice" },
  { value: "jam", label: "Jam Sessions" },
  { value: "recording", label: "Recordings" },
] as const;
