import { PRIVACY_EMAIL, ProsePage } from "~/components/layout/prose-page";
import { publicPageHeaders } from "~/lib/cache-headers";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/data-deletion";

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Data Deletion",
    description: "How to delete your GigLedger data, and what deletion removes.",
  });

export default function DataDeletion() {
  return (
    <ProsePage title="Data Deletion" intro="You can delete your data at any time.">
      <section>
        <h2>Delete your account yourself</h2>
        <p>
          Sign in, open Settings and choose Delete account. After you confirm with your password we
          delete your profile, sessions, uploaded media files, portfolio and messages straight away.
        </p>
        <p>
          Bookings the other party still needs keep their date and amount, with you shown as
          "Deleted user", so their records stay complete.
        </p>
      </section>
      <section>
        <h2>Instagram data</h2>
        <p>
          Data from a connected Instagram account is deleted immediately when you disconnect it.
        </p>
      </section>
      <section>
        <h2>Ask us to delete it</h2>
        <p>
          If you cannot sign in, write to{" "}
          <a className="text-brand-700 underline" href={`mailto:${PRIVACY_EMAIL}`}>
            {PRIVACY_EMAIL}
          </a>{" "}
          from the address of your account. Manual deletion requests are processed within 30 days,
          and we confirm by e-mail when it is done.
        </p>
      </section>
    </ProsePage>
  );
}
