/**
 * How our code in the browser build is cut into files. Left to the bundler, every icon and small
 * component shared by two routes became a file of its own (a profile page fetched 38 scripts on a
 * cold load). Now a public page fetches the framework's two files (exactly as a bare React Router
 * app does: react, react-dom and react-router keep the bundler's default split), the root route,
 * one "shell" file and its own route file, plus at most one "<page>-parts" file:
 *
 * - our code and icons the root route reaches (toasts, error pages, what runs the server markup),
 *   or that two or more public pages share, go into "shell";
 * - what exactly one public page shares with signed-in pages goes into "<page>-parts";
 * - the other widgets, helpers and icons that several pages use (or that a page loads lazily) go
 *   into one "kit" file: left to the bundler, each set of pages sharing them got a file of its own
 *   (the dashboard fetched 31 scripts, and a profile's lazy parts named 20 files to fetch);
 * - everything else stays where the bundler puts it (a route's own code in the route's file).
 *
 * A module's imports are reached by at least the routes that reach the module, so "shell" never
 * imports a "-parts" file or a route file: the files form no cycle and run in import order.
 */
import path from "node:path";
import type { Plugin } from "vite";

type ModuleInfo = { importers: readonly string[] };
type Context = { getModuleInfo(id: string): ModuleInfo | null };

const appDir = path.resolve(import.meta.dirname, "app");
const dbDir = path.resolve(import.meta.dirname, "db"); // db/enums.ts is shared with the browser
const routesDir = path.join(appDir, "routes");
export const ROOT = path.join(appDir, "root.tsx");
/** The pages anyone can open without an account; their weight is measured by bench:lighthouse. */
export const PUBLIC_ROUTES = [
  "home.tsx",
  "artist-discovery.tsx",
  "artist.tsx",
  "portfolio.$id.tsx",
  "verification.tsx",
  "verify.tsx",
];

const PRELOAD_HELPER = "\0vite/preload-helper.js";
/** A module's file, without the query a plugin may add to its id. */
export const fileOf = (id: string) => id.split("?")[0] ?? id;
/** lucide-react's modules: the icons we draw. */
const isIcon = (file: string) => file.includes(`${path.sep}lucide-react${path.sep}`);
/** Our code and the icons we draw, as opposed to the framework's and other libraries' code. */
export const isOurs = (file: string) =>
  file.startsWith(appDir + path.sep) || file.startsWith(dbDir + path.sep) || isIcon(file);
const isEntry = (file: string) => file === ROOT || file.startsWith(routesDir + path.sep);
const isPublic = (file: string) =>
  path.dirname(file) === routesDir && PUBLIC_ROUTES.includes(path.basename(file));

/** The route modules (and root) that statically import a module, directly or through others. */
function entriesReaching(id: string, ctx: Context, memo: Map<string, Set<string>>): Set<string> {
  const known = memo.get(id);
  if (known) return known;
  const found = new Set<string>();
  memo.set(id, found); // an import cycle ends here
  for (const importer of ctx.getModuleInfo(id)?.importers ?? []) {
    const file = fileOf(importer);
    if (isEntry(file)) found.add(file);
    else for (const entry of entriesReaching(importer, ctx, memo)) found.add(entry);
  }
  return found;
}

const memos = new WeakMap<Context, Map<string, Set<string>>>();

/** The file a module goes into, or null to leave it to the bundler. */
export function chunkFor(id: string, ctx: Context): string | null {
  const file = fileOf(id);
  // Vite's helper behind every lazy import() goes with the code that imports lazily (else it
  // lands in one route's file, and every page with a lazy import loads that route too).
  if (!isOurs(file) && file !== PRELOAD_HELPER) return null;
  // The root route shares the shell's file, and a public page's route its "-parts" file: one
  // request each fewer (each script's answer carries its own headers and compression overhead).
  if (file === ROOT) return "shell";
  if (isPublic(file)) return partsOf(file);
  if (isEntry(file)) return null;
  const memo = memos.get(ctx) ?? new Map<string, Set<string>>();
  memos.set(ctx, memo);
  const entries = entriesReaching(id, ctx, memo);
  if (entries.has(ROOT)) return "shell";
  const publicEntries = [...entries].filter(isPublic);
  if (publicEntries.length >= 2) return "shell";
  const [only] = publicEntries;
  if (only) return partsOf(only);
  // One page's own building block stays in that page's file.
  return isBuildingBlock(file) && entries.size !== 1 ? "kit" : null;
}

const BLOCK_DIRS = [path.join(appDir, "components", "ui"), path.join(appDir, "lib"), dbDir];
/** Widgets, helpers and icons. */
const isBuildingBlock = (file: string) =>
  BLOCK_DIRS.some((dir) => file.startsWith(dir + path.sep)) || isIcon(file);

const partsOf = (route: string) => `${path.basename(route, ".tsx").replace(/\W/g, "-")}-parts`;

/**
 * Applies `chunkFor` to the browser build only (the server bundle stays one file). Each group
 * holds exactly the modules named for it; by default a group also swallows everything its modules
 * import, which pulled the framework into "shell". Rolldown allows that only when entry files may
 * gain exports; React Router asks for "exports-only", so the browser build relaxes it (route files
 * keep all their exports).
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
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [{ name: chunkFor, debugName: "gigledger-chunking" }],
        },
      };
    },
  };
}

const LEAN_ICON = path.join(appDir, "components", "ui", "lucide-icon.ts");
const ICONS_DIR = `${path.sep}lucide-react${path.sep}dist${path.sep}esm${path.sep}icons${path.sep}`;

/**
 * In the browser build, lucide-react's icon modules (`lucide-react/icons/<name>`) draw through
 * `app/components/ui/lucide-icon.ts` instead of the library's `createLucideIcon`: the same <svg>
 * for about a tenth of the code. The server keeps lucide-react's own (it renders the markup the
 * browser hydrates; `lucide-icon.test.ts` checks both draw the same).
 */
export function leanIcons(): Plugin {
  return {
    name: "gigledger-lean-icons",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId(source, importer) {
      if (source !== "../createLucideIcon.mjs" || !importer) return null;
      return importer.includes(ICONS_DIR) ? LEAN_ICON : null;
    },
    // Each icon module reads its drawing once for nothing (`__iconData.node;`), a statement the
    // minifier must keep (a read could run a getter): a few bytes per icon on every page.
    transform(code, id) {
      if (!id.includes(ICONS_DIR)) return null;
      return code.replace(/^__iconData\.node;$/m, "");
    },
  };
}

/**
 * Vite's helper behind every lazy `import()` in the browser build, in its few lines that matter
 * here: start fetching the chunk's own imports alongside it (`<link rel="modulepreload">`, allowed
 * by the page's `script-src 'self'`), then import it. A file named twice is fetched once: the
 * browser keeps one module per address. Vite's own (about 0.75 KiB compressed)
 * also loads the CSS of lazy chunks and reads a CSP nonce for it; no chunk has CSS (the page
 * carries its own rules and the whole stylesheet is one file, decision 023). After the bundle is
 * made, each lazy import's list of files leaves out those already loaded (`withoutLoadedDeps`).
 */
export function leanPreload(): Plugin {
  return {
    name: "gigledger-lean-preload",
    enforce: "pre",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    load(id) {
      if (id !== PRELOAD_HELPER) return null;
      return `export const __vitePreload = (load, deps) => {
  for (const dep of deps || []) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = "/" + dep;
    document.head.appendChild(link);
  }
  return load();
};
`;
    },
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        const chunks = Object.values(bundle).filter((file) => file.type === "chunk");
        // The whole stylesheet is a file of its own (app/lib/page-styles.tsx); no chunk may
        // bring CSS with it.
        const withCss = chunks.filter((chunk) => (chunk.viteMetadata?.importedCss.size ?? 0) > 0);
        if (withCss.length > 0)
          this.error(
            `a lazy chunk's CSS would not load with the lean preload helper: ${withCss.map((chunk) => chunk.fileName).join(", ")}`,
          );
        for (const chunk of chunks) {
          chunk.code = withoutLoadedDeps(chunk.code, staticImports(chunk.fileName, bundle));
        }
      },
    },
  };
}

type Bundle = Record<string, { type: string; imports?: readonly string[] }>;

/** The files a chunk imports, directly or through others: all loaded before it runs. */
function staticImports(fileName: string, bundle: Bundle, found = new Set<string>()): Set<string> {
  const file = bundle[fileName];
  for (const imported of file?.imports ?? []) {
    if (found.has(imported)) continue;
    found.add(imported);
    staticImports(imported, bundle, found);
  }
  return found;
}

/** Vite's list of the files each lazy import of a chunk fetches alongside it. */
const DEPS_LIST =
  /^const __vite__mapDeps=\(i,m=__vite__mapDeps,d=\(m\.f\|\|\(m\.f=(\[[^\]]*\])\)\)\)=>i\.map\(i=>d\[i\]\);/;

/**
 * A chunk's lazy imports without the files it imports itself (the framework's, the shell): those
 * are loaded before it runs, so naming them again only adds bytes.
 */
export function withoutLoadedDeps(code: string, loaded: ReadonlySet<string>): string {
  const list = DEPS_LIST.exec(code);
  if (!list?.[1]) return code;
  const deps = JSON.parse(list[1]) as string[];
  const kept = deps.filter((dep) => !loaded.has(dep));
  if (kept.length === deps.length) return code;
  const header = list[0].replace(list[1], JSON.stringify(kept));
  const body = code
    .slice(list[0].length)
    .replace(/__vite__mapDeps\(\[([\d,]*)\]\)/g, (_call, indices: string) => {
      const mapped = indices
        .split(",")
        .filter(Boolean)
        .map((index) => kept.indexOf(deps[Number(index)] ?? ""))
        .filter((index) => index !== -1);
      return `__vite__mapDeps([${mapped.join(",")}])`;
    });
  return header + body;
}
