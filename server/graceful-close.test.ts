import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { boot } from "./boot";
import { gracefulClose } from "./graceful-close";

type Answer = { status: number; headers: Record<string, string>; body: string };

/** A raw HTTP/1.1 connection to 127.0.0.1 that stays open between requests (keep-alive). */
function keepAliveConnection(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  let buffer = "";
  let waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void } | null = null;
  const closed = new Promise<void>((resolve) =>
    socket.once("close", () => {
      waiting?.reject(new Error("connection closed before the answer"));
      waiting = null;
      resolve();
    }),
  );
  socket.on("error", () => {}); // a reset while closing is reported through `closed`
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0 || !waiting) return;
    const [statusLine = "", ...lines] = buffer.slice(0, end).split("\r\n");
    const headers = Object.fromEntries(
      lines.map((l) => [
        l.slice(0, l.indexOf(":")).toLowerCase(),
        l.slice(l.indexOf(":") + 1).trim(),
      ]),
    );
    const length = Number(headers["content-length"] ?? 0);
    if (buffer.length < end + 4 + length) return;
    const body = buffer.slice(end + 4, end + 4 + length);
    buffer = buffer.slice(end + 4 + length);
    const done = waiting;
    waiting = null;
    done.resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
  });
  return {
    closed,
    isOpen: () => !socket.destroyed && socket.readyState === "open",
    request(pathname: string) {
      return new Promise<Answer>((resolve, reject) => {
        if (socket.destroyed) return reject(new Error("connection closed"));
        waiting = { resolve, reject };
        socket.write(
          `GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`,
        );
      });
    },
  };
}

const started: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((stop) => stop()));
});

/** A server that answers "ok", or after `ms` for /slow?ms=…, or never for /hang. */
async function startServer() {
  const received: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    received.push(req.url ?? "");
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/hang") return;
    const ms = url.pathname === "/slow" ? Number(url.searchParams.get("ms")) : 0;
    setTimeout(() => {
      res.setHeader("Content-Type", "text/plain");
      res.end("ok");
    }, ms);
  });
  const close = gracefulClose(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  started.push(() => close(0));
  const { port } = server.address() as AddressInfo;
  return { server, port, close, received };
}

const elapsedSince = (t: number) => performance.now() - t;

describe("gracefulClose", () => {
  it("closes at once when keep-alive connections are open but idle", async () => {
    const { port, close } = await startServer();
    const connections = Array.from({ length: 5 }, () => keepAliveConnection(port));
    for (const c of connections) {
      const answer = await c.request("/");
      expect(answer.status).toBe(200);
      expect(answer.headers.connection).toBe("keep-alive");
    }
    expect(connections.every((c) => c.isOpen())).toBe(true);

    const t = performance.now();
    await close(10_000);
    expect(elapsedSince(t)).toBeLessThan(1_000);
    await Promise.all(connections.map((c) => c.closed));
  });

  it("lets a request in flight finish, tells its client the connection closes, then stops", async () => {
    const { port, close, received } = await startServer();
    const idle = keepAliveConnection(port);
    await idle.request("/");
    const busy = keepAliveConnection(port);
    await busy.request("/");
    const answer = busy.request("/slow?ms=300");
    await expect.poll(() => received.length).toBe(3);

    const t = performance.now();
    const stopped = close(10_000);
    const order: string[] = [];
    void idle.closed.then(() => order.push("idle connection closed"));
    const slow = await answer;
    order.push("slow request answered");
    // Idle connections do not wait for the busy one.
    expect(order).toEqual(["idle connection closed", "slow request answered"]);
    expect(slow).toMatchObject({ status: 200, body: "ok" });
    expect(slow.headers.connection).toBe("close");
    await stopped;
    await busy.closed;
    // Well before the keep-alive timeout (5 s) or the grace period (10 s).
    expect(elapsedSince(t)).toBeLessThan(1_500);
  });

  it("does not let a client that keeps sending requests on its connection hold the server open", async () => {
    const { port, close } = await startServer();
    const connection = keepAliveConnection(port);
    const answers: Answer[] = [];
    const loop = (async () => {
      // Bounded: at most 200 requests of 20 ms each.
      for (let i = 0; i < 200; i++) {
        const answer = await connection.request("/slow?ms=20").catch(() => null);
        if (!answer) return;
        answers.push(answer);
      }
    })();
    await expect.poll(() => answers.length).toBeGreaterThanOrEqual(3);

    const t = performance.now();
    await close(10_000);
    expect(elapsedSince(t)).toBeLessThan(1_000);
    await loop;
    await connection.closed;
    expect(answers.length).toBeLessThan(200);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    // The last answer says "close" when shutdown caught a request in flight; when it caught the
    // connection between two requests, the idle connection was simply closed. Either way the
    // client's next request found no server, which is what ended the loop above.
  });

  it("cuts a request that outlasts the grace period", async () => {
    const { port, close, received } = await startServer();
    const connection = keepAliveConnection(port);
    void connection.request("/hang").catch(() => {});
    await expect.poll(() => received.length).toBe(1);

    const t = performance.now();
    await close(200);
    expect(elapsedSince(t)).toBeGreaterThanOrEqual(150);
    expect(elapsedSince(t)).toBeLessThan(1_000);
    await connection.closed;
  });
});

describe("boot().stop()", () => {
  it("with open keep-alive connections and a request in flight, stops once that request is answered", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "gl-boot-"));
    let slowReceived = false;
    try {
      const running = await boot({
        getBuild: () => Promise.reject(new Error("no routes in this test")),
        envSource: {
          NODE_ENV: "test",
          HOST: "127.0.0.1",
          PORT: "0",
          DATA_DIR: dataDir,
          SEED_DEMO_DATA: "false",
          LOG_LEVEL: "silent",
          BETTER_AUTH_SECRET: "test-secret-".padEnd(40, "x"),
        },
        // Stands in for a slow page: answers /slow after 300 ms.
        before: (req, res, next) => {
          if (req.url !== "/slow") return next();
          slowReceived = true;
          setTimeout(() => res.end("ok"), 300);
        },
      });
      const { port } = running.server.address() as AddressInfo;
      const idle = Array.from({ length: 3 }, () => keepAliveConnection(port));
      for (const c of idle) expect((await c.request("/healthz")).status).toBe(200);
      const busy = keepAliveConnection(port);
      expect((await busy.request("/healthz")).status).toBe(200);
      const slow = busy.request("/slow");
      await expect.poll(() => slowReceived).toBe(true);

      const t = performance.now();
      await running.stop();
      expect((await slow).body).toBe("ok");
      await Promise.all([...idle, busy].map((c) => c.closed));
      // The answer takes 300 ms and closing the embedded database a little more; before, the
      // connection kept alive after the answer held the server until its keep-alive timeout (5 s).
      expect(elapsedSince(t)).toBeLessThan(3_000);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
