// An artist's IANA time zone: session and booking times are wall-clock times there (see
// docs/product.md, Artist profiles). Plain Intl only, so forms, pages and the server share it.

/** IANA names look like `Area/Location[/Sub]` (or `UTC`, `EST5EDT`); no offsets, no spaces. */
const IANA_SHAPE = /^(?:[A-Z][A-Za-z0-9_+-]*)(?:\/[A-Za-z0-9_+-]+){0,2}$/;

/** Is this the name of a real IANA time zone (one this runtime knows), written as IANA writes it? */
export function isTimeZone(value: string): boolean {
  if (value.length > 64 || !IANA_SHAPE.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * ICU still lists some zones by their old names; people know them by the current IANA ones, which
 * every runtime accepts too.
 */
const CURRENT_NAMES: Record<string, string> = {
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Asia/Rangoon": "Asia/Yangon",
  "Europe/Kiev": "Europe/Kyiv",
  "America/Godthab": "America/Nuuk",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
  "Pacific/Enderbury": "Pacific/Kanton",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
};

let options: string[] | undefined;

/** Every zone a profile can choose, sorted, with `extra` (a stored or default zone) included. */
export function timeZoneOptions(...extra: string[]): string[] {
  options ??= [
    ...new Set(
      ["UTC", ...Intl.supportedValuesOf("timeZone")]
        .map((zone) => CURRENT_NAMES[zone] ?? zone)
        .filter(isTimeZone),
    ),
  ].sort();
  const missing = extra.filter((zone) => isTimeZone(zone) && !options?.includes(zone));
  return missing.length ? [...options, ...missing].sort() : options;
}

/** The zone's name as the runtime resolves it: two names of one zone resolve alike. */
function resolved(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The entry of `choices` that names the same zone as `zone` ("Asia/Calcutta" ≡ "Asia/Kolkata"). */
export function matchTimeZone(zone: string, choices: readonly string[]): string | undefined {
  if (choices.includes(zone)) return zone;
  const key = resolved(zone);
  return key ? choices.find((choice) => resolved(choice) === key) : undefined;
}

/** "America/Argentina/Buenos_Aires" → "America/Argentina/Buenos Aires". */
export const timeZoneLabel = (zone: string) => zone.replaceAll("_", " ");
