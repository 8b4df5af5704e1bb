import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressRefusal, REFUSALS, safeFetchText } from "./safe-fetch.server";

describe("addressRefusal: which addresses a public app never reads", () => {
  it.each([
    // Public addresses are read.
    ["93.184.216.34", null],
    ["8.8.8.8", null],
    ["2606:4700:4700::1111", null],
    ["2a00:1450:4001:81b::200e", null],
    // Loopback, in every spelling.
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["[::1]", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["0:0:0:0:0:ffff:7f00:0001", "loopback"],
    // Private networks.
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.10", "private"],
    ["100.64.0.1", "shared (carrier NAT)"],
    ["::ffff:10.1.2.3", "private"],
    ["::ffff:c0a8:101", "private"],
    ["fc00::1", "unique local (private)"],
    ["fd12:3456:789a::1", "unique local (private)"],
    ["fec0::1", "site-local (private)"],
    // Link-local, cloud metadata among them.
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["169.254.0.1", "link-local (cloud metadata)"],
    ["::ffff:169.254.169.254", "link-local (cloud metadata)"],
    ["fd00:ec2::254", "unique local (private)"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    // IPv4 inside IPv6 by translation.
    ["64:ff9b::a9fe:a9fe", "link-local (cloud metadata)"],
    ["64:ff9b::8.8.8.8", "NAT64"],
    ["2002:a9fe:a9fe::1", "link-local (cloud metadata)"],
    ["::10.0.0.1", "private"],
    // IPv4-translated (RFC 2765, ::ffff:0:0:0/96): judged by its IPv4 address, refused even when public.
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::ffff:0:7f00:1", "loopback"],
    ["::ffff:0:a00:1", "private"],
    ["::ffff:0:a9fe:a9fe", "link-local (cloud metadata)"],
    ["::ffff:0:808:808", "IPv4-translated"],
    // Local-use NAT64 (RFC 8215, 64:ff9b:1::/48): its IPv4 address may sit at several places.
    ["64:ff9b:1::808:808", "NAT64 (local use)"],
    ["64:ff9b:1::7f00:1", "NAT64 (local use)"],
    ["64:ff9b:1:a9fe:a9:fe00::", "NAT64 (local use)"],
    ["64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "NAT64 (local use)"],
    ["64:ff9b:2::1", "reserved (not global unicast)"],
    // The rest that is never a calendar server.
    ["0.0.0.0", "this network"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "reserved and broadcast"],
    ["192.0.2.1", "documentation"],
    ["2001:db8::1", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["192.0.0.170", "protocol assignments"],
    ["192.88.99.1", "6to4 relay"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["100.127.255.255", "shared (carrier NAT)"],
    ["240.0.0.1", "reserved and broadcast"],
    ["100::1", "discard"],
    ["100:0:0:1::1", "dummy prefix"],
    ["2001::1", "protocol assignments"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "protocol assignments"],
    ["2001:2::1", "protocol assignments"],
    ["2001:20::1", "protocol assignments"],
    ["2001:1ff:ffff::1", "protocol assignments"],
    ["3fff::1", "documentation"],
    ["3fff:fff::1", "documentation"],
    ["5f00::1", "segment routing (SRv6)"],
    ["4000::1", "reserved (not global unicast)"],
    ["1::1", "reserved (not global unicast)"],
    ["2002:808:808::1", null],
    ["2001:200::1", null],
    ["3fff:1000::1", null],
    ["not-an-ip", "not an address"],
    ["1.2.3", "not an address"],
  ])("%s → %s", (address, refusal) => {
    expect(addressRefusal(address, false)).toBe(refusal);
  });

  it.each(["127.0.0.1", "::1", "::ffff:127.0.0.1"])(
    "a local app may read loopback %s, and still nothing private",
    (address) => {
      expect(addressRefusal(address, true)).toBeNull();
      expect(addressRefusal("10.0.0.1", true)).toBe("private");
      expect(addressRefusal("169.254.169.254", true)).not.toBeNull();
    },
  );

  it.each([
    ["::ffff:0:127.0.0.1", "IPv4-translated"],
    ["64:ff9b::127.0.0.1", "NAT64"],
    ["64:ff9b:1::7f00:1", "NAT64 (local use)"],
  ])(
    "a local app still refuses loopback reached through a translator: %s → %s",
    (address, refusal) => {
      expect(addressRefusal(address, true)).toBe(refusal);
    },
  );
});

// ─── End to end, against a server of our own on loopback ───────────────────────────────────────

const CALENDAR = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n";
let server: Server;
let base: string;
const seenCookies: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seenCookies.push(req.headers.cookie);
    const path = req.url ?? "/";
    if (path === "/calendar.ics") {
      res.writeHead(200, { "content-type": "text/calendar", "set-cookie": "a=b" });
      res.end(CALENDAR);
    } else if (path.startsWith("/hop/")) {
      const n = Number(path.slice(5));
      res.writeHead(302, { location: n > 1 ? `/hop/${n - 1}` : "/calendar.ics" });
      res.end();
    } else if (path === "/to-metadata") {
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      res.end();
    } else if (path === "/to-private") {
      res.writeHead(301, { location: "http://10.0.0.1/calendar.ics" });
      res.end();
    } else if (path === "/to-ftp") {
      res.writeHead(302, { location: "ftp://127.0.0.1/calendar.ics" });
      res.end();
    } else if (path === "/big") {
      res.writeHead(200, { "content-type": "text/calendar" });
      res.end("x".repeat(300_000));
    } else if (path === "/big-chunked") {
      res.writeHead(200, { "content-type": "text/calendar", "transfer-encoding": "chunked" });
      for (let i = 0; i < 30; i++) res.write("x".repeat(10_000));
      res.end();
    } else if (path === "/slow") {
      res.writeHead(200, { "content-type": "text/calendar" });
      res.write("BEGIN:VCALENDAR\r\n");
      setTimeout(() => res.end(CALENDAR), 2_000);
    } else if (path === "/missing") {
      res.writeHead(404);
      res.end();
    } else {
      res.writeHead(500);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const local = { allowLoopback: true, timeoutMs: 1_000, maxBytes: 200_000 };
const publicApp = { ...local, allowLoopback: false };

describe("safeFetchText", () => {
  it("reads a calendar from a local server when the app is local, sending no cookie", async () => {
    expect(await safeFetchText(`${base}/calendar.ics`, local)).toBe(CALENDAR);
    expect(await safeFetchText(`${base}/hop/3`, local)).toBe(CALENDAR);
    expect(seenCookies.every((c) => c === undefined)).toBe(true);
  });

  it("refuses loopback when the app is public, also by name and in IPv6 spellings", async () => {
    const port = new URL(base).port;
    for (const address of [
      `${base}/calendar.ics`,
      `http://localhost:${port}/calendar.ics`,
      `http://[::ffff:127.0.0.1]:${port}/calendar.ics`,
      `http://2130706433:${port}/calendar.ics`,
      `http://0x7f.1:${port}/calendar.ics`,
    ]) {
      await expect(safeFetchText(address, publicApp), address).rejects.toThrow(
        REFUSALS.privateAddress,
      );
    }
  });

  it("checks every redirect and stops after three", async () => {
    await expect(safeFetchText(`${base}/to-metadata`, local)).rejects.toThrow(
      REFUSALS.privateAddress,
    );
    await expect(safeFetchText(`${base}/to-private`, local)).rejects.toThrow(
      REFUSALS.privateAddress,
    );
    await expect(safeFetchText(`${base}/to-ftp`, local)).rejects.toThrow(REFUSALS.protocol);
    await expect(safeFetchText(`${base}/hop/4`, local)).rejects.toThrow(REFUSALS.tooManyRedirects);
  });

  it("refuses what is too big, too slow, missing, or not http", async () => {
    const tooBig = REFUSALS.tooBig(200_000 / 1024 / 1024);
    await expect(safeFetchText(`${base}/big`, local)).rejects.toThrow(tooBig);
    await expect(safeFetchText(`${base}/big-chunked`, local)).rejects.toThrow(tooBig);
    await expect(safeFetchText(`${base}/slow`, local)).rejects.toThrow(REFUSALS.tooSlow);
    await expect(safeFetchText(`${base}/missing`, local)).rejects.toThrow(REFUSALS.status(404));
    for (const address of ["file:///etc/passwd", "gopher://127.0.0.1/", "not a url"]) {
      await expect(safeFetchText(address, local), address).rejects.toThrow(REFUSALS.protocol);
    }
  });
});
