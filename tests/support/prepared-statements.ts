import type { Database } from "~db/client";

/**
 * The database as the driver sees it, recording the text of each statement it is asked to
 * prepare (queryRowsPrepared's named statements), and failing the next one when told to. A proxy
 * of Drizzle's session, the driver's side: our own code runs unchanged.
 */
export function recordingPrepared(db: Database) {
  const recorder = { prepared: [] as string[], failNext: false };
  const session = new Proxy(db._.session, {
    get(target, property, receiver) {
      if (property !== "prepareQuery") return Reflect.get(target, property, receiver);
      return (...args: Parameters<typeof target.prepareQuery>) => {
        recorder.prepared.push(args[0].sql);
        if (!recorder.failNext) return target.prepareQuery(...args);
        recorder.failNext = false;
        return { execute: () => Promise.reject(new Error("connection lost")) };
      };
    },
  });
  const recorded = new Proxy(db, {
    get: (target, property, receiver) =>
      property === "_" ? { ...target._, session } : Reflect.get(target, property, receiver),
  });
  return { ctx: { db: recorded }, recorder };
}
