/**
 * A datetime-local value ("2026-11-21T19:30") as an instant. The browser sends its own offset
 * (Date#getTimezoneOffset); without JavaScript the app's time zone is assumed.
 */
export function localDateTimeToUtc(
  local: string,
  timezoneOffset: number | undefined,
  timeZone: string,
): Date {
  const [date = "", time = ""] = local.split("T");
  const [y, mo, d] = date.split("-").map(Number);
  const [h, mi, s = 0] = time.split(":").map(Number);
  const asUtc = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s);
  if (timezoneOffset !== undefined) return new Date(asUtc + timezoneOffset * 60_000);
  // The zone's offset at (about) that moment; a second pass settles daylight-saving edges.
  let guess = asUtc - zoneOffsetMs(new Date(asUtc), timeZone);
  guess = asUtc - zoneOffsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

function zoneOffsetMs(at: Date, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The value a datetime-local field shows for an instant, in the browser's own zone. */
export function toLocalInputValue(at: Date): string {
  const shifted = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** "Nov 21, 2026, 7:30 PM" in the given zone (server render) or the browser's. */
export function formatSessionDate(at: Date | string, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone,
  }).format(typeof at === "string" ? new Date(at) : at);
}

/** "Now" as a datetime-local value in the given zone (the server's default for the form). */
export function nowInZone(timeZone: string, now: Date = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}
