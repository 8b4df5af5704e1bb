import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../support/free-port";
import { type SpawnedServer, spawnServer, waitUntilReady } from "../support/spawn-server";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";

const MB = 1024 * 1024;
const FILE_BYTES = 150 * MB; // over 100 MB: a video (limit 500 MB)

function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") * 1024, peak: kb("VmHWM") * 1024 };
}

/** Streams a valid MP4 header followed by zeros, never holding the file in memory here either. */
function uploadLargeVideo(server: SpawnedServer, sessionId: string, cookie: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      `${server.url}/api/sessions/${sessionId}/media?fileName=big.mp4`,
      {
        method: "PUT",
        headers: {
          Cookie: cookie,
          Origin: server.url,
          "Content-Type": "application/octet-stream",
          "Content-Length": String(FILE_BYTES),
        },
      },
      (res) => {
        let body = "";
        res.on("data", (d) => {
          body += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    const header = Buffer.alloc(32);
    header.writeUInt32BE(32, 0);
    header.write("ftypisom", 4);
    header.writeUInt32BE(512, 12);
    header.write("isomiso2avc1mp41", 16);
    const chunk = Buffer.alloc(MB);
    let sent = 0;
    const pump = () => {
      while (sent < FILE_BYTES) {
        const piece =
          sent === 0
            ? Buffer.concat([header, chunk.subarray(header.length)])
            : chunk.subarray(0, Math.min(MB, FILE_BYTES - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

test("a 150 MB upload streams to storage: the server's memory does not grow with the file", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "gl-mem-"));
  const port = await freePort();
  const spawned = await spawnServer({
    DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    TRUST_PROXY: "true",
    LOG_LEVEL: "warn",
    // No demo data: seeding it and signing its credentials on first start competed with this
    // test's first steps for the CPU (a profile took over 5 s to create beside other tests).
    SEED_DEMO_DATA: "false",
  });
  // Our own port, so APP_URL (the mails' links, the trusted origin) matches the address we browse.
  const server = { ...spawned, url: `http://127.0.0.1:${port}` };
  try {
    await waitUntilReady(server);
    const context = await browser.newContext({
      baseURL: server.url,
      extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.77" },
    });
    const page = await context.newPage();
    await signUpConfirmed(page, newAccount({ firstName: "Memo" }));
    await page.goto("/profile-setup");
    await page.getByLabel("Artist Name").fill(`Memory Band ${Date.now().toString(36)}`);
    for (const [label, value] of [
      ["Genre", "Jazz"],
      ["Location", "Chicago IL"],
      ["Bio", "Big files."],
      ["Experience", "1 year"],
      ["Instruments", "Tape"],
    ]) {
      await page.getByLabel(label as string).fill(value as string);
    }
    await page.getByRole("button", { name: "Create Profile" }).click();
    await expect(page.getByText("Profile Created!")).toBeVisible();
    await page.goto("/sessions/new?returnTo=%2Fartist-dashboard%3Ftab%3Dsessions");
    await page.getByLabel("Session Type").selectOption("recording");
    await page.getByLabel("Title").fill("Long take");
    await page.getByRole("button", { name: "Create Session" }).click();
    await page
      .getByRole("article", { name: "Long take" })
      .getByRole("link", { name: "Long take" })
      .click();
    await expect(page).toHaveURL(/\/sessions\/[0-9a-f-]{36}/);
    const sessionId = /\/sessions\/([0-9a-f-]{36})/.exec(page.url())?.[1] ?? "";
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");

    const pid = server.process.pid ?? 0;
    const idle = memoryOf(pid);
    let highest = idle.rss;
    const sampler = setInterval(() => {
      highest = Math.max(highest, memoryOf(pid).rss);
    }, 25);
    const result = await uploadLargeVideo(server, sessionId, cookie);
    clearInterval(sampler);
    const after = memoryOf(pid);
    // VmHWM counts since start (migrations and seeding included): it only tells about the upload
    // when it rose during it. The 25 ms samples of VmRSS cover the rest.
    const peak = Math.max(highest, after.peak > idle.peak ? after.peak : 0);
    const growth = peak - idle.rss;
    console.log(
      `idle RSS ${(idle.rss / MB).toFixed(1)} MB (VmHWM ${(idle.peak / MB).toFixed(1)} → ${(after.peak / MB).toFixed(1)}), peak RSS during upload ${(peak / MB).toFixed(1)} MB, growth ${(growth / MB).toFixed(1)} MB for a ${FILE_BYTES / MB} MB upload`,
    );
    expect(result.status, result.body).toBe(201);
    expect(JSON.parse(result.body).media).toMatchObject({
      mediaType: "video",
      fileSize: FILE_BYTES,
    });
    expect(growth).toBeLessThan(200 * MB);

    await page.goto(`/sessions/${sessionId}?tab=media`);
    await expect(page.locator("video")).toHaveCount(1);
    await expect(page.getByText("150.0 MB")).toBeVisible();
    await context.close();
  } finally {
    server.process.kill("SIGTERM");
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
});
