/**
 * How the browser build is cut into files. A public page should cost its visitor few requests:
 * the framework's own two files (as in a bare React Router app), the root route, one "shell"
 * file and the page's route file. Without this, every icon and small component shared by two
 * routes became a file of its own (a profile page fetched 38 scripts).
 *
 * - Framework code (react, react-dom, react-router …) keeps the bundler's default split.
 * - App code and icons reached from the root route (header, footer, toasts, error pages), or shared
 *   by two or more of the public pages, go into "shell".
 * - Everything else stays with the route that uses it (or in a default shared chunk between
 *   signed-in pages).
 */
import path from "node:path";
import type { Plugin } from "vite";

type ModuleInfo = { importers: readonly string[] };
type Context = { getModuleInfo(id: string): ModuleInfo | null };

const appDir = path.resolve(import.meta.dirname, "app");
const ROOT = path.join(appDir, "root.tsx");
export const PUBLIC_ROUTES = [
  "home.tsx",
  "artist-discovery.tsx",
  "artist.tsx",
  "portfolio.$id.tsx",
].map((file) => path.join(appDir, "routes", file));

const fileOf = (id: string) => id.split("?")[0] ?? id;
const isEntry = (file: string) =>
  file === ROOT || file.startsWith(path.join(appDir, "routes") + path.sep);

/** The route modules (and root) that statically import a module, directly or through others. */
function entriesReaching(id: string, ctx: Context, memo: Map<string, Set<string>>): Set<string> {
  const known = memo.get(id);
  if (known) return known;
  const found = new Set<string>();
  memo.set(id, found); // cycles end here
  for (const importer of ctx.getModuleInfo(id)?.importers ?? []) {
    const file = fileOf(importer);
    if (isEntry(file)) found.add(file);
    else for (const entry of entriesReaching(importer, ctx, memo)) found.add(entry);
  }
  return found;
}

let memo = new Map<string, Set<string>>();
let lastContext: Context | null = null;

export function chunkFor(id: string, ctx: Context): string | null {
  if (ctx !== lastContext) {
    memo = new Map();
    lastContext = ctx;
  }
  const file = fileOf(id);
  const ours =
    file.startsWith(appDir + path.sep) || file.includes(`${path.sep}lucide-react${path.sep}`);
  if (!ours || isEntry(file)) return null;
  const entries = entriesReaching(id, ctx, memo);
  if (entries.has(ROOT)) return "shell";
  const publicEntries = [...entries].filter((entry) => PUBLIC_ROUTES.includes(entry));
  if (publicEntries.length >= 2) return "shell";
  const [only] = publicEntries;
  return only ? `${path.basename(only, ".tsx").replace(/\W/g, "-")}-parts` : null;
}

/** The framework's own code: one file, shared by every page (a bare React Router app has the same). */
const FRAMEWORK =
  /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser|turbo-stream)[\\/]|rolldown[\\/:]runtime/;

/**
 * Applies the groups above to the browser build only (the server bundle keeps one file). Each
 * group holds exactly the modules named for it: by default a group also swallows everything its
 * modules import, which pulled the header's helpers into whichever page file claimed them first.
 * Rolldown allows that only when entry files may gain exports; React Router asks for
 * "exports-only", so the browser build relaxes it (route files keep their exports), and keeps
 * modules running in import order.
 */
export function chunking(): Plugin {
  return {
    name: "gigledger-chunking",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    options(options) {
      return { ...options, preserveEntrySignatures: "allow-extension" };
    },
    outputOptions(output) {
      return {
        ...output,
        strictExecutionOrder: true,
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            { name: "framework", test: FRAMEWORK, priority: 20 },
            { name: chunkFor, priority: 10 },
          ],
        },
      };
    },
  };
}
