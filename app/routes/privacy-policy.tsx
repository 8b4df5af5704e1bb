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
    <ProsePage title="Privacy Policy" intro="Last updated: 28 November 2026">
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
          <li>
            A fingerprint of every file you upload: its SHA-256 hash, computed as it arrives and
            kept with the file as evidence of what was uploaded and when. Anyone with a copy of the
            file can compute the same hash; it reveals nothing else about the file.
          </li>
          <li>
            Calendars you import: the address you give us, and from the calendar only the dates you
            are busy. We never keep the titles, descriptions, places or guests of your events. The
            address is kept secret, and removing the calendar deletes it and its dates.
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
          Imported calendars are never shown: others see only that you are unavailable on a day.
        </p>
      </section>
      <section>
        <h2>Signed credentials</h2>
        <p>
          When a session is verified (by fellow artists, or by a client who booked and rated you
          here), GigLedger signs a credential for it and adds it to your performance CV, which is
          public at your profile&apos;s address so that anyone can check it. A credential names you
          by your profile&apos;s address and says the session&apos;s title, type, date, town (never
          the venue), its verification level, who verified it, and the fingerprints of its files.
          When a session is deleted or loses its verification, its credential is revoked: a public,
          signed status list (one bit per credential, with no personal details) says so, and it
          leaves your CV. Copies someone downloaded before stay with them, but show as revoked when
          checked.
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
