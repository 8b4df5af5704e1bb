/**
 * The framework's files every page loads start with V8's explicit compile hint,
 * `//# allFunctionsCalledOnLoad` (decision 027). Chromium (136 and later) then compiles the whole
 * file on the background thread that streams it, instead of compiling each function on the main
 * thread the first time it runs: React DOM and React Router run most of their code in a page's
 * first second (evaluation, the router's creation, hydration). Other browsers read a comment.
 *
 * Only the framework's files get the hint: about 20 compressed bytes each, and our own files are
 * small and run only in part.
 */
import type { Plugin } from "vite";
import { fileOf, isOurs, ROOT } from "./vite.chunks.ts";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

type Chunk = {
  type: "chunk";
  fileName: string;
  code: string;
  isEntry: boolean;
  moduleIds: readonly string[];
  imports: readonly string[];
};

/** The framework's files a page loads: the browser entry and what the root route imports. */
function frameworkFiles(chunks: readonly Chunk[]): Chunk[] {
  const root = chunks.find((chunk) => chunk.moduleIds.some((id) => fileOf(id) === ROOT));
  const firstLoaded = new Set(root?.imports ?? []);
  return chunks.filter(
    (chunk) =>
      (chunk.isEntry || firstLoaded.has(chunk.fileName)) &&
      !chunk.moduleIds.some((id) => isOurs(fileOf(id))),
  );
}

export function compileHints(): Plugin {
  return {
    name: "gigledger-compile-hints",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((file) => file.type === "chunk") as Chunk[];
        const framework = frameworkFiles(chunks);
        if (framework.length === 0) this.error("no framework file found for the compile hint");
        for (const chunk of framework) chunk.code = COMPILE_HINT + chunk.code;
      },
    },
  };
}
