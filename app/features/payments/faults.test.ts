import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateSecretKeyMultibase } from "~/lib/ed25519-key.server";
import { isEnvError, loadEnv } from "~/lib/env.server";
import { faultPointsOf, noFaults } from "./faults.server";

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "gl-faults-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("GIGLEDGER_FAULTS", () => {
  it("arms the named fault points on a local app, and none by default", () => {
    expect(loadEnv({ DATA_DIR: tempDir() }).faults).toEqual([]);
    const env = loadEnv({
      DATA_DIR: tempDir(),
      GIGLEDGER_FAULTS: " events.before-commit, release.after-provider-call ",
    });
    expect(env.faults).toEqual(["events.before-commit", "release.after-provider-call"]);
  });

  it("refuses an unknown name, naming the ones there are", () => {
    expect(() => loadEnv({ DATA_DIR: tempDir(), GIGLEDGER_FAULTS: "events.before-comit" })).toThrow(
      /GIGLEDGER_FAULTS.*must be a comma-separated list of fault points: webhook\./,
    );
  });

  it("stops the start of a public app", () => {
    let error: unknown;
    try {
      loadEnv({
        DATA_DIR: tempDir(),
        APP_URL: "https://gigledger.example",
        BETTER_AUTH_SECRET: "x".repeat(40),
        CREDENTIAL_SIGNING_KEY: generateSecretKeyMultibase(),
        MAIL_TRANSPORT: "log",
        GIGLEDGER_FAULTS: "commands.after-provider-call",
      });
    } catch (caught) {
      error = caught;
    }
    expect(isEnvError(error)).toBe(true);
    expect((error as Error).message).toMatch(/GIGLEDGER_FAULTS: .*refused when APP_URL/);
  });

  it("kills the process with SIGKILL at an armed point only", () => {
    const kill = vi.spyOn(process, "kill").mockImplementation(() => true);
    const fault = faultPointsOf({ faults: ["webhook.after-inbox-insert"] });
    fault("events.before-commit");
    expect(kill).not.toHaveBeenCalled();
    fault("webhook.after-inbox-insert");
    expect(kill).toHaveBeenCalledWith(process.pid, "SIGKILL");
    expect(faultPointsOf({ faults: [] })).toBe(noFaults);
  });
});
