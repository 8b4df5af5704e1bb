import { Link } from "react-router";
import { ProsePage } from "~/components/layout/prose-page";
import { ServerMarkup } from "~/components/ui/server-markup";
import { VERIFICATION_LEVELS } from "~/features/verification/verification-levels";
import { publicPageHeaders } from "~/lib/cache-headers";
import { pageMeta } from "~/lib/meta";
import { renderMarkup } from "~/lib/server-markup.server";
import type { Route } from "./+types/verification";

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "How sessions are verified",
    description:
      "The five verification levels of a GigLedger session, from Self-logged to Paid & agreed, and what each one proves.",
  });

export function loader({ request, context }: Route.LoaderArgs) {
  // Nothing on this page needs JavaScript: it is drawn on the server only (decision 022).
  return { page: renderMarkup({ request, context }, <VerificationLadder />) };
}

export default function Verification({ loaderData }: Route.ComponentProps) {
  return <ServerMarkup markup={loaderData.page} />;
}

/** The ladder in plain words: the same labels and explanations every session shows. */
function VerificationLadder() {
  return (
    <ProsePage
      title="How sessions are verified"
      intro="Every session in an artist's history has exactly one level. We work it out from what happened on GigLedger, never from what anyone types in, so the level always says who vouched for the session."
    >
      <section aria-labelledby="ladder-title">
        <h2 id="ladder-title">The five levels, lowest first</h2>
        <ol className="mt-4 space-y-4">
          {VERIFICATION_LEVELS.map((level, i) => (
            <li key={level.id} id={level.id} className="rounded-xl border border-slate-200 p-4">
              <p className="font-semibold text-slate-900">
                {i + 1}. {level.label}
              </p>
              <p className="mt-1">{level.explanation}</p>
              <p className="mt-1 text-sm text-slate-600">{level.detail}</p>
            </li>
          ))}
        </ol>
      </section>
      <section>
        <h2>When a session qualifies for more than one</h2>
        <p>
          It shows the highest. The levels are ordered by how independent the evidence is: a gig
          agreed and paid here, paid out with no problem reported, stands above a client's rating, a
          client who booked and rated the gig here above the lineup that played it, and the lineup
          above other artists who vouch for it. A session shows who verified it and when: artists by
          name, and "the client" for a gig booked here.
        </p>
      </section>
      <section>
        <h2>Which confirmations count</h2>
        <ul className="list-disc space-y-1 pl-5">
          <li>Only after the fact: artists can confirm a session once it has ended, not before.</li>
          <li>
            More than one voice: one artist's word is not enough. It takes two, or one who has a
            client-verified gig of their own.
          </li>
          <li>
            Nobody confirms their own session. A confirmation from an account less than a week old,
            or from an artist who has not logged a session of their own, is shown but does not
            count.
          </li>
          <li>
            The same artist's confirmations of another's sessions count once every 90 days. Artists
            who only vouch for each other (two, or a ring of three) can reach Peer-confirmed at
            most: Lineup-verified needs a voice from outside their circle.
          </li>
        </ul>
      </section>
      <section>
        <h2>Evidence</h2>
        <p>
          Every photo, audio or video file uploaded to a session is fingerprinted with SHA-256 as it
          arrives, and the session page lists each file with its fingerprint. Anyone holding a copy
          can check it is the same file (for example with <code>sha256sum</code>). A file uploaded
          again later is a new piece of evidence with its own fingerprint.
        </p>
        <p>
          A gig booked here points at its signed agreement by the agreement's SHA-256. Once it is
          Paid &amp; agreed, its credential names that agreement as "Paid through GigLedger" and
          says the payment was released. It never says how much was paid: only the client and the
          artist, who hold the agreement, can see the price.
        </p>
      </section>
      <section>
        <h2>The client decides what is public</h2>
        <p>
          When a client rates a gig, they choose whether the artist's public history shows the
          venue. Unless they tick it, the public sees only the event type and the city; the client
          and the artist always see the venue.
        </p>
      </section>
      <p>
        <Link to="/artist-discovery" className="text-brand-700 underline">
          Discover artists
        </Link>
      </p>
    </ProsePage>
  );
}
