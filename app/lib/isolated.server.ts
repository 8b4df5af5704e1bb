import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Work on a document nobody vouches for (an uploaded CV, an imported calendar) runs here: in a
 * worker thread of its own with a time limit and a heap limit, terminated when it runs past
 * either (decision 037). A runaway (a canonicalization that never ends, a repeating rule no date
 * matches, a parse that fills the heap) then costs one worker, never the server: the main thread
 * keeps answering, and nothing the document did survives into the next one, since every run
 * starts a fresh worker.
 *
 * A task is a `*.worker.ts` module beside its feature that calls `serveIsolated` (see
 * `isolated-worker.server.ts`). The build bundles each into `build/server/workers/`; from the
 * sources (tests, `npm run dev`) the worker compiles the module itself with tsx.
 */

export type IsolationLimits = {
  /** Wall-clock time for the whole run, host calls included. */
  timeoutMs: number;
  /** The worker's old-generation heap; running out ends the worker, not the server. */
  memoryMb: number;
};

/** What the worker may ask of the server while it runs (for example a status list). */
export type HostCalls = Record<string, (argument: never) => Promise<unknown>>;

type IsolationFailure = "timeout" | "memory" | "crashed" | "busy";

export class IsolatedWorkFailed extends Error {
  override readonly name = "IsolatedWorkFailed";
  constructor(
    readonly reason: IsolationFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Messages between the two sides (`isolated-worker.server.ts` speaks the other half). */
export type FromWorker =
  | { type: "call"; id: number; name: string; argument: unknown }
  | { type: "done"; ok: true; value: unknown }
  | { type: "done"; ok: false; message: string };
export type ToWorker = {
  type: "reply";
  id: number;
  ok: boolean;
  value?: unknown;
  message?: string;
};
export type IsolatedWorkerData = { input: unknown; entry?: string };

/** Runs at once: each takes a core; the rest wait their turn, up to MAX_WAITING. */
const MAX_RUNNING = Math.max(2, availableParallelism() - 1);
const MAX_WAITING = 32;
let running = 0;
const waiting: Array<() => void> = [];

async function takeTurn(): Promise<() => void> {
  if (running >= MAX_RUNNING) {
    if (waiting.length >= MAX_WAITING)
      throw new IsolatedWorkFailed("busy", "Too many documents are being checked right now.");
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    waiting.shift()?.();
  };
}

const fromSources = import.meta.url.endsWith(".ts");
const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The file a worker runs: the task's module itself when running from the sources (through the
 * tsx boot file), its bundle under `workers/` beside the server build otherwise.
 */
function workerFile(task: URL): { file: string; entry?: string } {
  if (fromSources)
    return {
      file: path.join(here, "isolated-tsx-boot.mjs"),
      entry: pathToFileURL(task.pathname).href,
    };
  return { file: path.join(here, "workers", path.basename(task.pathname).replace(/\.ts$/, ".js")) };
}

/**
 * Runs the task module `task` (a URL of a `*.worker.ts` file, `new URL("./x.worker.ts",
 * import.meta.url)`) on `input` in a fresh worker, within `limits`. Resolves with what the task
 * returned; rejects with IsolatedWorkFailed when it ran out of time or memory, threw, or too many
 * runs are already waiting.
 */
export async function runIsolated<T>(
  task: URL,
  input: unknown,
  limits: IsolationLimits,
  host: HostCalls = {},
): Promise<T> {
  const release = await takeTurn();
  try {
    return await runWorker<T>(task, input, limits, host);
  } finally {
    release();
  }
}

function runWorker<T>(task: URL, input: unknown, limits: IsolationLimits, host: HostCalls) {
  const { file, entry } = workerFile(task);
  const workerData: IsolatedWorkerData = { input, entry };
  const worker = new Worker(file, {
    workerData,
    resourceLimits: {
      maxOldGenerationSizeMb: limits.memoryMb,
      maxYoungGenerationSizeMb: Math.min(32, Math.max(4, Math.floor(limits.memoryMb / 8))),
    },
    stdout: false,
    stderr: false,
  });
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(new IsolatedWorkFailed("timeout", `Stopped after ${limits.timeoutMs} ms.`)),
        ),
      limits.timeoutMs,
    );
    worker.on("message", (message: FromWorker) => {
      if (message.type === "done") {
        finish(() =>
          message.ok
            ? resolve(message.value as T)
            : reject(new IsolatedWorkFailed("crashed", message.message)),
        );
        return;
      }
      const call = host[message.name];
      const reply = (answer: Omit<ToWorker, "type" | "id">) => {
        if (!settled) worker.postMessage({ type: "reply", id: message.id, ...answer });
      };
      if (!call) {
        reply({ ok: false, message: `No host call named ${message.name}.` });
        return;
      }
      call(message.argument as never).then(
        (value) => reply({ ok: true, value }),
        (error: unknown) => reply({ ok: false, message: String(error) }),
      );
    });
    worker.on("error", (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new IsolatedWorkFailed("memory", `Ran out of its ${limits.memoryMb} MB.`)
            : new IsolatedWorkFailed("crashed", error.message),
        ),
      ),
    );
    worker.on("exit", (code) =>
      finish(() =>
        reject(new IsolatedWorkFailed("crashed", `The worker stopped (exit code ${code}).`)),
      ),
    );
  });
}
