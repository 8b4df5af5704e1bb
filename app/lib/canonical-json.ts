// RFC 8785 (JSON Canonicalization Scheme) for the JSON GigLedger signs: strings, safe integers,
// booleans, null, arrays and plain objects. Any other number (a fraction, -0, NaN, beyond 2^53)
// or value throws, so JCS's one hard part, number formatting, never arises (docs/decisions/047).

/**
 * A string as RFC 8785 §3.2.2.2 writes it: JSON.stringify escapes exactly so (ECMAScript's rules).
 * A lone surrogate throws: I-JSON (RFC 7493), which RFC 8785 requires, forbids it, UTF-8 cannot
 * hold it, and other implementations would write or reject it differently.
 */
function writeString(text: string): string {
  if (LONE_SURROGATE.test(text))
    throw new TypeError(`Canonical JSON takes no lone surrogate: ${JSON.stringify(text)}`);
  return JSON.stringify(text);
}

// With the u flag a well-formed pair is one code point, so only a lone half is a surrogate.
const LONE_SURROGATE = /\p{Surrogate}/u;

function write(value: unknown, out: string[]): void {
  if (value === null || typeof value === "boolean") {
    out.push(String(value));
  } else if (typeof value === "string") {
    out.push(writeString(value));
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || Object.is(value, -0))
      throw new TypeError(`Canonical JSON takes safe integers only, not ${value}`);
    out.push(String(value));
  } else if (Array.isArray(value)) {
    out.push("[");
    // A plain loop, not forEach: forEach skips the holes of a sparse array, which would vanish.
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      write(value[i], out);
    }
    out.push("]");
  } else if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    // Members sorted by their names' UTF-16 code units (JavaScript's default string order).
    const keys = Object.keys(value).sort();
    out.push("{");
    let first = true;
    for (const key of keys) {
      const member = (value as Record<string, unknown>)[key];
      if (member === undefined) throw new TypeError(`Canonical JSON has no undefined (${key})`);
      if (!first) out.push(",");
      first = false;
      out.push(writeString(key), ":");
      write(member, out);
    }
    out.push("}");
  } else {
    throw new TypeError(`Canonical JSON cannot hold ${typeof value}`);
  }
}

/** The RFC 8785 form of `value` (UTF-8 when written out). */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join("");
}
