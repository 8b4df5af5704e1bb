// Runs a `*.worker.ts` task from the sources (tests, `npm run dev`): tsx compiles it and resolves
// the project's `~/` paths. The production build runs the bundled task instead (isolated.server.ts).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
