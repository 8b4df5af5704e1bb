import { parentPort, workerData } from "node:worker_threads";
import type { FromWorker, IsolatedWorkerData, ToWorker } from "./isolated.server";

/**
 * The worker's half of `runIsolated` (`isolated.server.ts`): a `*.worker.ts` module calls
 * `serveIsolated(task)` at its top level, and the task gets the input and a way to ask the server
 * for what only it has (`host("name", argument)`, answered by the run's HostCalls).
 */
export type Host = (name: string, argument?: unknown) => Promise<unknown>;

export function serveIsolated<I, O>(task: (input: I, host: Host) => Promise<O> | O): void {
  const port = parentPort;
  if (!port) throw new Error("serveIsolated runs only inside a worker started by runIsolated.");
  const send = (message: FromWorker) => port.postMessage(message);
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 0;
  port.on("message", (message: ToWorker) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.value);
    else waiter.reject(new Error(message.message ?? "The host call failed."));
  });
  const host: Host = (name, argument) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ type: "call", id, name, argument });
    });
  const { input } = workerData as IsolatedWorkerData;
  Promise.resolve()
    .then(() => task(input as I, host))
    .then(
      (value) => send({ type: "done", ok: true, value }),
      (error: unknown) =>
        send({
          type: "done",
          ok: false,
          message: error instanceof Error ? error.message : String(error),
        }),
    );
}
