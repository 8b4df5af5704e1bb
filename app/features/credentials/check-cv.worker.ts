import { serveIsolated } from "~/lib/isolated-worker.server";
import type { DidDocument } from "./did";
import { type CvCheck, CvFormatError, checkCv } from "./verify.server";

/** What `checkUploadedCv` hands the worker: the file's text and GigLedger's own issuer. */
export type CheckCvInput = { text: string; ourDid: string; didDocument: DidDocument };
export type CheckCvOutput = { ok: true; check: CvCheck } | { ok: false; formatError: string };

// Runs in a worker of its own (app/lib/isolated.server.ts): parsing, expanding and
// canonicalizing a file a stranger uploaded. Status lists come from the server (`statusList`).
serveIsolated(async (input: CheckCvInput, host): Promise<CheckCvOutput> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input.text);
  } catch {
    return { ok: false, formatError: "This file is not a CV: it is not JSON." };
  }
  try {
    const check = await checkCv(parsed, {
      resolveDid: async (did) => (did === input.ourDid ? input.didDocument : null),
      loadStatusList: (url) => host("statusList", url),
    });
    return { ok: true, check };
  } catch (error) {
    if (error instanceof CvFormatError) return { ok: false, formatError: error.message };
    throw error;
  }
});
