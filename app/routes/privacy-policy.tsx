import { Link } from "react-router";
import { PRIVACY_EMAIL, ProsePage } from "~/components/layout/prose-page";
import { publicPageHeaders } from "~/lib/cache-headers";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/privacy-policy";

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Privacy Policy",
    description: "What GigLedger collects, why, and how you stay in control of it.",
  });

export default function PrivacyPolicy() {
  return (
    <ProsePage title="Privacy Policy" intro="Last updated: 1 November 2024">
      <section>
        <h2>What we collect</h2>
        <ul>
          <li>Account details: your name, e-mail address and a securely hashed password.</li>
          <li>
            Artist profile details you choose to publish: artist name, bio, genre, location,
            experience, instruments, hourly rate and social links.
          </li>
          <li>
            Your performance history: sessions you log, the photos, audio and video you upload, and
            the verifications other artists and clients give.
          </li>
          <li>Bookings, the messages exchanged inside them, and ratings.</li>
          <li>Basic technical logs (time, page, status) to keep the service secure and working.</li>
        </ul>
      </section>
      <section>
        <h2>How we use it</h2>
        <p>
          We use your data only to run GigLedger: to show your public profile and portfolio, to let
          clients book you, to deliver messages and e-mail notifications, and to verify performance
          history. We do not sell personal data and we do not show third-party advertising.
        </p>
      </section>
      <section>
        <h2>What is public</h2>
        <p>
          Your artist profile, your sessions and your availability calendar are public so that
          clients can find and book you. Your portfolio is private until you make it public.
          Bookings and their messages are visible only to the client and the artist of that booking.
        </p>
      </section>
      <section>
        <h2>Instagram</h2>
        <p>
          If you connect Instagram (coming soon), we read only the list of accounts you follow to
          show how many of them have collaborated with an artist. When you disconnect, that data is
          deleted immediately.
        </p>
      </section>
      <section>
        <h2>Your rights</h2>
        <p>
          You can correct your details in Settings at any time and delete your account there
          yourself. See{" "}
          <Link to="/data-deletion" className="text-brand-700 underline">
            Data Deletion
          </Link>{" "}
          for what deletion removes. Manual deletion requests are processed within 30 days.
        </p>
      </section>
      <section>
        <h2>Contact</h2>
        <p>
          Questions about privacy:{" "}
          <a className="text-brand-700 underline" href={`mailto:${PRIVACY_EMAIL}`}>
            {PRIVACY_EMAIL}
          </a>
        </p>
      </section>
    </ProsePage>
  );
}
