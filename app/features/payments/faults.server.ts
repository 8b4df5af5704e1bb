// Fault points for the crash tests (design money-and-terms §8.5): a local app started with
// GIGLEDGER_FAULTS=<name>,… kills itself with SIGKILL when it reaches one of them, between the
// provider's success (or our inbox's commit) and the write that records it. A public app refuses
// the variable at start (app/lib/env.server.ts), so in production every point does nothing.

import type { Env, FaultPointName } from "~/lib/env.server";

export type { FaultPointName };

/** Called at each named point; returns only when the point is not armed. */
export type FaultPoint = (name: FaultPointName) => void;

export const noFaults: FaultPoint = () => {};

/** The fault points armed by the environment: each armed one ends the process at once. */
export function faultPointsOf(env: Pick<Env, "faults">): FaultPoint {
  const armed = new Set(env.faults);
  if (armed.size === 0) return noFaults;
  return (name) => {
    if (armed.has(name)) process.kill(process.pid, "SIGKILL");
  };
}
