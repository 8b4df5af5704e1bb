import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";

/**
 * Reading an address someone else typed, from our server, without letting it reach what only the
 * server can reach (SSRF; decision 016). Only http and https. The host is resolved and every
 * address it has is checked, the connection goes to an address that was checked (so a second DNS
 * answer cannot swap it), and each redirect (at most 3) is checked again. A time limit covers the
 * whole exchange, a size limit the body; no cookies or credentials are ever sent. Loopback is
 * allowed only when the app runs locally, so tests can serve a calendar themselves.
 */

export type SafeFetchOptions = {
  /** The app is local (APP_URL on localhost): loopback addresses may be read. */
  allowLoopback: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Sent as Accept. */
  accept?: string;
};

export const SAFE_FETCH_DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 3,
};

/** A refusal or failure, in words a user can act on. */
export class FetchRefused extends Error {
  override readonly name = "FetchRefused";
}

export const REFUSALS = {
  protocol: "Only http:// and https:// addresses can be read.",
  privateAddress:
    "This address leads to a private or local network, which GigLedger does not read. Use the calendar's public address.",
  tooManyRedirects: "This address redirected more than 3 times.",
  tooBig: (mb: number) => `The calendar is larger than ${mb} MB.`,
  tooSlow: "The calendar's server took too long to answer.",
  notFound: "The calendar's server could not be found.",
  unreachable: "The calendar's server could not be reached.",
  status: (status: number) => `The calendar's server answered with an error (HTTP ${status}).`,
} as const;

// ─── The address check ─────────────────────────────────────────────────────────────────────────

type Range = [prefix: number[], bits: number, what: string];

/** IPv4 ranges never read: [first octets, prefix length, what it is]. */
const V4_REFUSED: Range[] = [
  [[0], 8, "this network"],
  [[10], 8, "private"],
  [[100, 64], 10, "shared (carrier NAT)"],
  [[169, 254], 16, "link-local (cloud metadata)"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "protocol assignments"],
  [[192, 0, 2], 24, "documentation"],
  [[192, 88, 99], 24, "6to4 relay"],
  [[192, 168], 16, "private"],
  [[198, 18], 15, "benchmarking"],
  [[198, 51, 100], 24, "documentation"],
  [[203, 0, 113], 24, "documentation"],
  [[224], 4, "multicast"],
  [[240], 4, "reserved and broadcast"],
];

function inRange(bytes: number[], [prefix, bits]: Range) {
  for (let i = 0; i * 8 < bits; i++) {
    const take = Math.min(8, bits - i * 8);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Bytes(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  const bytes = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null;
}

/** The 16 bytes of an IPv6 address (with or without an embedded dotted IPv4 tail), or null. */
function v6Bytes(address: string): number[] | null {
  let text = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const tail = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (tail?.[1]) {
    const v4 = v4Bytes(tail[1]);
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  const bytes: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    const n = Number.parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  return bytes;
}

const allZero = (bytes: number[]) => bytes.every((b) => b === 0);

/**
 * IPv6 ranges never read, from IANA's IPv6 Special-Purpose Address Registry and address space:
 * [first bytes, prefix length, what it is]. The most specific first. Ranges that carry an IPv4
 * address where it can be read (mapped, compatible, translated, NAT64's well-known prefix, 6to4)
 * are judged in `addressRefusal` before this table. Everything outside 2000::/3 (global unicast)
 * is refused even when this table does not name it.
 */
const V6_REFUSED: Range[] = [
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, "NAT64 (local use)"],
  [[0x01, 0, 0, 0, 0, 0, 0, 0], 64, "discard"],
  [[0x01, 0, 0, 0, 0, 0, 0, 1], 64, "dummy prefix"],
  [[0x20, 0x01, 0x0d, 0xb8], 32, "documentation"],
  // Teredo, benchmarking, ORCHID, AMT, anycast services: none of them a calendar server.
  [[0x20, 0x01, 0x00], 23, "protocol assignments"],
  [[0x3f, 0xff, 0x00], 20, "documentation"],
  [[0x5f, 0x00], 16, "segment routing (SRv6)"],
  [[0xfc], 7, "unique local (private)"],
  [[0xfe, 0x80], 10, "link-local"],
  [[0xfe, 0xc0], 10, "site-local (private)"],
  [[0xff], 8, "multicast"],
];

/**
 * Why GigLedger must not connect to `address` (an IP address, v4 or v6), or null when it may.
 * Loopback (127.0.0.0/8, ::1, and their IPv4-mapped forms) is refused unless `allowLoopback`.
 */
export function addressRefusal(address: string, allowLoopback: boolean): string | null {
  const family = isIP(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  if (family === 4) {
    const bytes = v4Bytes(address);
    if (!bytes) return "not an address";
    if (bytes[0] === 127) return allowLoopback ? null : "loopback";
    const hit = V4_REFUSED.find((r) => inRange(bytes, r));
    return hit ? hit[2] : null;
  }
  if (family !== 6) return "not an address";
  const bytes = v6Bytes(address);
  if (!bytes) return "not an address";
  const v4 = (from: number) => bytes.slice(from, from + 4).join(".");
  // IPv4 carried inside IPv6 where it can be read: mapped (::ffff:a.b.c.d), compatible
  // (::a.b.c.d), translated (::ffff:0:a.b.c.d, RFC 2765), NAT64's well-known prefix
  // (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::) are judged by their IPv4 address; the
  // translated and NAT64 forms are refused even then, since a translator on our own network
  // would carry the connection.
  if (allZero(bytes.slice(0, 10)) && bytes[10] === 0xff && bytes[11] === 0xff)
    return addressRefusal(v4(12), allowLoopback);
  if (allZero(bytes.slice(0, 15)) && bytes[15] === 1) return allowLoopback ? null : "loopback";
  if (allZero(bytes)) return "unspecified";
  if (allZero(bytes.slice(0, 12))) return addressRefusal(v4(12), allowLoopback);
  if (inRange(bytes, [[0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0], 96, "IPv4-translated"]))
    return addressRefusal(v4(12), allowLoopback) ?? "IPv4-translated";
  if (inRange(bytes, [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96, "NAT64"]))
    return addressRefusal(v4(12), allowLoopback) ?? "NAT64";
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return addressRefusal(v4(2), allowLoopback);
  const hit = V6_REFUSED.find((r) => inRange(bytes, r));
  if (hit) return hit[2];
  if (((bytes[0] ?? 0) & 0xe0) !== 0x20) return "reserved (not global unicast)";
  return null;
}

// ─── The fetch ─────────────────────────────────────────────────────────────────────────────────

/** Resolves the host, refuses it if any of its addresses is refused, and pins the first. */
function checkedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, verbatim: true })
      .then((addresses) => {
        for (const a of addresses) {
          if (addressRefusal(a.address, allowLoopback))
            throw new FetchRefused(REFUSALS.privateAddress);
        }
        const [first] = addresses;
        if (!first) throw new FetchRefused(REFUSALS.notFound);
        if (options.all) callback(null, [first]);
        else callback(null, first.address, first.family);
      })
      .catch((error: unknown) => {
        const refused = error instanceof FetchRefused ? error : new FetchRefused(REFUSALS.notFound);
        callback(refused as unknown as NodeJS.ErrnoException, "", 0);
      });
  };
}

type Answer = { status: number; location: string | null; body: string };

function requestOnce(url: URL, options: Required<SafeFetchOptions>, signal: AbortSignal) {
  return new Promise<Answer>((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "GET",
        signal,
        lookup: checkedLookup(options.allowLoopback),
        // No pooled sockets: each request resolves and checks afresh.
        agent: false,
        headers: {
          accept: options.accept,
          "user-agent": "GigLedger calendar sync",
          "accept-encoding": "identity",
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          resolve({ status, location: response.headers.location ?? null, body: "" });
          return;
        }
        const declared = Number(response.headers["content-length"] ?? 0);
        if (declared > options.maxBytes) {
          response.destroy();
          reject(new FetchRefused(REFUSALS.tooBig(options.maxBytes / 1024 / 1024)));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            reject(new FetchRefused(REFUSALS.tooBig(options.maxBytes / 1024 / 1024)));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({ status, location: null, body: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

/** Refuses a URL before any connection: its protocol, and its host when that is an address. */
function checkUrl(url: URL, allowLoopback: boolean) {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchRefused(REFUSALS.protocol);
  if (url.username || url.password) throw new FetchRefused(REFUSALS.protocol);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) && addressRefusal(host, allowLoopback))
    throw new FetchRefused(REFUSALS.privateAddress);
}

/**
 * GETs `address` and returns the body as text, following at most `maxRedirects` redirects, each
 * checked like the first. Throws FetchRefused with a plain message for every refusal or failure.
 */
export async function safeFetchText(address: string, options: SafeFetchOptions): Promise<string> {
  const settings: Required<SafeFetchOptions> = {
    ...SAFE_FETCH_DEFAULTS,
    accept: "text/calendar, text/plain;q=0.5, */*;q=0.1",
    ...options,
  };
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new FetchRefused(REFUSALS.protocol);
  }
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  for (let redirects = 0; ; redirects++) {
    checkUrl(url, settings.allowLoopback);
    let answer: Answer;
    try {
      answer = await requestOnce(url, settings, deadline);
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      if (deadline.aborted) throw new FetchRefused(REFUSALS.tooSlow);
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof FetchRefused) throw cause;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTFOUND" || code === "EAI_AGAIN") throw new FetchRefused(REFUSALS.notFound);
      throw new FetchRefused(REFUSALS.unreachable);
    }
    if (answer.status >= 300 && answer.status < 400) {
      if (!answer.location) throw new FetchRefused(REFUSALS.status(answer.status));
      if (redirects >= settings.maxRedirects) throw new FetchRefused(REFUSALS.tooManyRedirects);
      try {
        url = new URL(answer.location, url);
      } catch {
        throw new FetchRefused(REFUSALS.protocol);
      }
      continue;
    }
    if (answer.status < 200 || answer.status >= 300)
      throw new FetchRefused(REFUSALS.status(answer.status));
    return answer.body;
  }
}
