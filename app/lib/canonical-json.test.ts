import fc from "fast-check";
import { canonicalize } from "json-canonicalize";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

/** Integer-only JSON: what canonicalJson takes (no fractions, no -0, no lone surrogates). */
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.maxSafeInteger().map((n) => (n === 0 ? 0 : n)),
    fc.string({ unit: "binary" }),
    fc.array(tie("json")),
    fc.dictionary(fc.string({ unit: "binary" }), tie("json"), { noNullPrototype: true }),
  ),
}));

/** The same members, inserted in another order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse())
      Object.defineProperty(out, key, {
        value: reordered((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

describe("canonicalJson", () => {
  it("writes RFC 8785 §3.2.2's example (its integer-free part) as the RFC does", () => {
    // The RFC's input text, parsed as a verifier would.
    const input = JSON.parse(String.raw`{
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`);
    expect(canonicalJson(input)).toBe(
      String.raw`{"literals":[null,true,false],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it("sorts members by their names' UTF-16 code units (RFC 8785 §3.2.3)", () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`);
    const names = [...canonicalJson(input).matchAll(/"([^"]*)":"([^"]*)"/g)].map((m) => m[2]);
    expect(names).toEqual([
      "Carriage Return",
      "One",
      "Control",
      "Latin Small Letter O With Diaeresis",
      "Euro Sign",
      "Emoji: Grinning Face",
      "Hebrew Letter Dalet With Dagesh",
    ]);
    // U+0080 and the rest go out as themselves; only \r is escaped.
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control",' +
        '"\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",' +
        '"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it("writes integers, literals, nesting and escapes without whitespace", () => {
    expect(
      canonicalJson({ b: [1, -2, { d: null, c: true }], a: "x\u0000\u001f\u007f\u2028" }),
    ).toBe('{"a":"x\\u0000\\u001f\u007f\u2028","b":[1,-2,{"c":true,"d":null}]}');
    expect(canonicalJson([])).toBe("[]");
    expect(canonicalJson({})).toBe("{}");
    expect(canonicalJson(Number.MAX_SAFE_INTEGER)).toBe("9007199254740991");
    expect(canonicalJson(JSON.parse('{"__proto__":1}'))).toBe('{"__proto__":1}');
  });

  it("does not depend on the order members were added in", () => {
    expect(canonicalJson({ b: 1, a: { y: 2, x: 3 } })).toBe(
      canonicalJson({ a: { x: 3, y: 2 }, b: 1 }),
    );
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(reordered(value))).toBe(canonicalJson(value));
      }),
    );
  });

  it("reads back as the same value, and writes that again unchanged", () => {
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(value);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it("throws on anything that is not integer-only JSON", () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    for (const bad of [
      1.5,
      -0,
      Number.NaN,
      Infinity,
      -Infinity,
      2 ** 53,
      -(2 ** 53),
      1e21,
      10n,
      undefined,
      () => 1,
      Symbol("s"),
      new Date(0),
      new Map([["a", 1]]),
      new Set([1]),
      new Uint8Array(1),
      Object.create(null),
      new (class Point {
        x = 1;
      })(),
      "\ud800",
      "a\udc00b",
    ]) {
      expect(() => canonicalJson(bad)).toThrow(TypeError);
      expect(() => canonicalJson({ a: bad })).toThrow(TypeError);
      expect(() => canonicalJson([bad])).toThrow(TypeError);
    }
    expect(() => canonicalJson({ "\ud800": 1 })).toThrow(TypeError);
    expect(() => canonicalJson(sparse)).toThrow(TypeError);
  });

  it("equals json-canonicalize on integer-only JSON", () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });
});
