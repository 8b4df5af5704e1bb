// The page's scripts start once it is drawn (decision 024); never part of a browser file.

/**
 * The type the framework's module script is given in the page: not a script type, so the
 * browser leaves it unrun until `LOADER` runs a copy of it. React hydrates the element all the
 * same (an inline script is matched by its tag alone).
 */
export const HELD_SCRIPT_TYPE = "module-after-paint";

/**
 * Runs in the page's <head> before anything is drawn. Once the page has painted its first text or
 * image (or cannot be seen, so nothing is drawn first) and its markup is all read, it asks for
 * the framework's and the page's modules together (modulepreload) and runs the held module
 * script, with the page's nonce. A browser without paint timing waits for one frame instead;
 * after three seconds it waits no longer, whatever happened.
 */
const LOADER = `(function (hrefs) {
  var nonce = document.currentScript ? document.currentScript.nonce : "";
  var painted = false, started = false;
  function start() {
    if (started || !painted || document.readyState === "loading") return;
    started = true;
    hrefs.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    });
    var held = document.querySelector('script[type="${HELD_SCRIPT_TYPE}"]');
    var script = document.createElement("script");
    script.type = "module";
    script.nonce = nonce;
    script.textContent = held ? held.textContent : "";
    document.head.append(script);
  }
  function paint() { painted = true; start(); }
  setTimeout(paint, 3000);
  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("visibilitychange", paint);
  var observer = window.PerformanceObserver;
  if (document.visibilityState === "hidden") paint();
  else if (observer && (observer.supportedEntryTypes || []).indexOf("paint") !== -1)
    new observer(function (list) {
      if (list.getEntriesByName("first-contentful-paint").length) paint();
    }).observe({ type: "paint", buffered: true });
  else requestAnimationFrame(function () { setTimeout(paint); });
})`;

// What React Router's <Scripts> writes (React hoists the preload links into the <head>). A page's
// own text cannot take these shapes: React escapes "<" in text and attributes.
const PRELOAD_LINK = /<link rel="modulepreload" href="([^"]+)"(?: nonce="[^"]*")?\/>/g;
const MODULE_SCRIPT = /<script( nonce="[^"]*")? type="module" async="">/;

/**
 * The rendered page with its scripts started after its first paint instead of as soon as the
 * parser sees them: on a phone the page's text is drawn without waiting for, or sharing the
 * connection and the processor with, the framework's code; the page works without it until then
 * as it does without JavaScript. A page without the framework's module script is left as it is.
 */
export function withScriptsAfterPaint(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  const headEnd = html.indexOf("</head>");
  if (!script || headEnd === -1 || headEnd > script.index) return html;
  const nonce = script[1] ?? "";
  const hrefs: string[] = [];
  const head = html.slice(0, headEnd).replace(PRELOAD_LINK, (_link, href: string) => {
    hrefs.push(href);
    return "";
  });
  const loader = `<script${nonce}>${LOADER}(${JSON.stringify(hrefs).replaceAll("<", "\\u003c")})</script>`;
  const body = html
    .slice(headEnd)
    .replace(MODULE_SCRIPT, `<script${nonce} type="${HELD_SCRIPT_TYPE}">`);
  return head + loader + body;
}
