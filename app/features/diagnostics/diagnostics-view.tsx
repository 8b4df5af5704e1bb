import Circle from "lucide-react/icons/circle";
import CheckCircle2 from "lucide-react/icons/circle-check";
import XCircle from "lucide-react/icons/circle-x";
import type { ReactNode } from "react";
import type { DeploymentStage, Diagnostics } from "./diagnostics.server";
import { useIntervalRevalidation } from "./use-interval-revalidation";

const REFRESH_MS = 5000;

const STEPS: { stage: DeploymentStage; label: string }[] = [
  { stage: "dns", label: "DNS" },
  { stage: "ssl", label: "SSL" },
  { stage: "deployment", label: "Deployment" },
  { stage: "live", label: "Live" },
];

function Ok({ ok, children }: { ok: boolean | null; children: ReactNode }) {
  const Icon = ok === null ? Circle : ok ? CheckCircle2 : XCircle;
  return (
    <span
      className={`inline-flex items-center gap-1.5 ${ok === false ? "text-red-700" : ok ? "text-emerald-700" : "text-slate-600"}`}
    >
      <Icon aria-hidden className="h-4 w-4 shrink-0" />
      {children}
    </span>
  );
}

function Widget({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-2xl border border-slate-200 bg-white p-5">
      <h2 className="text-lg font-semibold">{title}</h2>
      <dl className="mt-3 grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-2 text-sm">
        {children}
      </dl>
    </section>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </>
  );
}

/** Where the deployment is: dns → ssl → deployment → live, or error. */
function StageWidget({ d }: { d: Diagnostics }) {
  const reached = STEPS.findIndex((s) => s.stage === d.stage);
  return (
    <section
      aria-label="Deployment stage"
      className="rounded-2xl border border-slate-200 bg-white p-5"
    >
      <h2 className="text-lg font-semibold">Deployment stage</h2>
      <p className="mt-1 text-sm text-slate-600" aria-live="polite">
        <strong
          className={
            d.stage === "error"
              ? "text-red-700"
              : d.stage === "live"
                ? "text-emerald-700"
                : "text-amber-700"
          }
        >
          {d.stage === "error" ? "Error" : STEPS[reached]?.label}
        </strong>
        : {d.stageReason}
      </p>
      <ol className="mt-4 flex flex-wrap gap-2">
        {STEPS.map((s, i) => {
          const done = d.stage === "live" || (reached >= 0 && i < reached);
          const current = s.stage === d.stage;
          return (
            <li
              key={s.stage}
              aria-current={current ? "step" : undefined}
              className={`rounded-full px-3 py-1 text-sm font-medium ${
                done
                  ? "bg-emerald-50 text-emerald-800"
                  : current
                    ? "bg-amber-50 text-amber-900"
                    : "bg-slate-100 text-slate-600"
              }`}
            >
              {s.label}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function DomainWidget({ d }: { d: Diagnostics }) {
  return (
    <Widget title="Domain and HTTPS">
      <Row label="Public URL">{d.domain.publicUrl}</Row>
      <Row label="Mode">{d.domain.isPublic ? "Public" : "Local"}</Row>
      <Row label="DNS">
        <Ok ok={d.domain.resolves}>
          {d.domain.resolves === null
            ? "Not checked (local)"
            : d.domain.resolves
              ? `${d.domain.hostname} resolves`
              : `${d.domain.hostname} does not resolve`}
        </Ok>
      </Row>
      <Row label="HTTPS">
        <Ok ok={d.domain.https || !d.domain.isPublic}>
          {d.domain.https ? "Yes" : d.domain.isPublic ? "No" : "No (fine while local)"}
        </Ok>
      </Row>
    </Widget>
  );
}

function AuthWidget({ d }: { d: Diagnostics }) {
  return (
    <Widget title="Sign-in configuration">
      <Row label="Auth endpoints">{d.auth.basePath}</Row>
      <Row label="Trusted origins">{d.auth.trustedOrigins.join(", ")}</Row>
      <Row label="Cookies">
        <Ok ok={d.auth.cookies.secure || !d.domain.isPublic}>
          {d.auth.cookies.secure
            ? "Secure"
            : d.domain.isPublic
              ? "Not Secure"
              : "Not Secure (fine while local)"}
          ; SameSite={d.auth.cookies.sameSite}; HttpOnly
        </Ok>
      </Row>
    </Widget>
  );
}

function ServicesWidget({ d }: { d: Diagnostics }) {
  const { database: db } = d;
  return (
    <Widget title="Services">
      <Row label="Database">
        <Ok ok={db.reachable}>
          {db.driver === "pglite" ? "Embedded PostgreSQL (PGlite)" : "PostgreSQL server"} ·{" "}
          {db.reachable ? "reachable" : "not reachable"}
        </Ok>
      </Row>
      <Row label="Database location">{db.location}</Row>
      <Row label="Migrations">
        <Ok ok={db.migrationsApplied === db.migrationsAvailable}>
          {`${db.migrationsApplied ?? "?"} of ${db.migrationsAvailable} applied`}
        </Ok>
      </Row>
      <Row label="File storage">
        <Ok ok={d.storage.writable}>
          {d.storage.driver === "s3" ? "S3-compatible" : "Local disk"} ({d.storage.location}) ·{" "}
          {d.storage.writable ? "writable" : "not writable"}
        </Ok>
      </Row>
      <Row label="Mail">
        {d.mail.transport === "smtp"
          ? `SMTP (${d.mail.server ?? "configured"})`
          : d.mail.transport === "outbox"
            ? "Development outbox (/dev/outbox)"
            : "Log only"}
      </Row>
    </Widget>
  );
}

function CheckedAt({ d }: { d: Diagnostics }) {
  return (
    <p className="text-sm text-slate-500">
      Checked at{" "}
      <time dateTime={d.checkedAt}>{d.checkedAt.replace("T", " ").slice(0, 19)} UTC</time>
      {`; refreshes every ${REFRESH_MS / 1000} seconds.`}
    </p>
  );
}

/**
 * The two diagnostic pages differ only in their words and whether they list the services:
 * /diagnostic shows everything, /domain-diagnostic the public address, HTTPS and sign-in.
 */
export const DIAGNOSTIC_PAGES = {
  full: {
    title: "Diagnostics",
    intro: "How this GigLedger server is set up and whether its parts answer.",
    services: true,
  },
  domain: {
    title: "Domain Diagnostics",
    intro: "The public address, HTTPS and sign-in settings of this server.",
    services: false,
  },
} as const;
type DiagnosticPage = (typeof DIAGNOSTIC_PAGES)[keyof typeof DIAGNOSTIC_PAGES];

/** The head of a diagnostic page: its title, and never in a search engine. */
export const diagnosticsMeta = (page: DiagnosticPage) => [
  { title: `${page.title} | GigLedger` },
  { name: "robots", content: "noindex" },
];

/** A diagnostic page, refreshed every REFRESH_MS while visible. */
export function DiagnosticsPage({ page, d }: { page: DiagnosticPage; d: Diagnostics }) {
  useIntervalRevalidation(REFRESH_MS);
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <h1 className="text-3xl font-bold">{page.title}</h1>
        <p className="mt-1 text-slate-600">{page.intro}</p>
        <CheckedAt d={d} />
      </div>
      <StageWidget d={d} />
      {page.services ? <ServicesWidget d={d} /> : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <DomainWidget d={d} />
        <AuthWidget d={d} />
      </div>
    </main>
  );
}
