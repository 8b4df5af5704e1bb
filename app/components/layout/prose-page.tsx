import type { ReactNode } from "react";

/** Layout for long static texts: one readable column. */
export function ProsePage({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main id="main" className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold sm:text-4xl">{title}</h1>
      {intro ? <p className="mt-4 text-lg text-slate-600">{intro}</p> : null}
      <div className="mt-10 space-y-8 text-slate-700 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_li]:mt-1 [&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6">
        {children}
      </div>
    </main>
  );
}

export const PRIVACY_EMAIL = "privacy@gigledger.app";
