import CalendarCheck from "lucide-react/icons/calendar-check";
import ClipboardList from "lucide-react/icons/clipboard-list";
import MessageSquare from "lucide-react/icons/message-square";
import Search from "lucide-react/icons/search";
import Share2 from "lucide-react/icons/share-2";
import Star from "lucide-react/icons/star";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { MIN_COUNTED, RESPONSE_WINDOW_HOURS } from "~/features/trust/trust";
import { publicPageHeaders } from "~/lib/cache-headers";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/discover";

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "How it works",
    description:
      "How GigLedger turns every gig into verified history for artists, and how clients find and book them.",
  });

const FOR_ARTISTS = [
  {
    icon: ClipboardList,
    title: "Create your profile",
    text: "Genre, location, instruments, rate and links: a public page clients can book from.",
  },
  {
    icon: Share2,
    title: "Log and share sessions",
    text: "Log performances, practice, jams and recordings with photos, audio and video. Share a link so fellow artists join as collaborators or verify a past session.",
  },
  {
    icon: CalendarCheck,
    title: "Publish your availability",
    text: "Mark dates available, booked or unavailable. Accepting a booking marks the date booked for you.",
  },
  {
    icon: Star,
    title: "Get verified automatically",
    text: "Every gig booked here is logged as a performance and verified once the client rates it.",
  },
];

const FOR_CLIENTS = [
  {
    icon: Search,
    title: "Discover artists",
    text: "Search by name, genre or instrument and filter by location.",
  },
  {
    icon: CalendarCheck,
    title: "Send a booking request",
    text: "Pick an available date, the duration and venue; you see the estimated cost before you send.",
  },
  {
    icon: MessageSquare,
    title: "Talk it through",
    text: "Message the artist inside the booking. Both of you get the messages live and by e-mail.",
  },
  {
    icon: Star,
    title: "Rate the performance",
    text: "After the event, your rating adds a verified gig to the artist's history.",
  },
];

function StepList({ steps }: { steps: typeof FOR_ARTISTS }) {
  return (
    <ol className="mt-6 space-y-4">
      {steps.map((step, i) => (
        <li key={step.title} className="flex gap-4 rounded-xl border border-slate-200 p-5">
          <step.icon aria-hidden className="h-6 w-6 shrink-0 text-brand-600" />
          <div>
            <h3 className="font-semibold">
              {i + 1}. {step.title}
            </h3>
            <p className="mt-1 text-slate-600">{step.text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

export default function Discover() {
  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold sm:text-4xl">How GigLedger works</h1>
      <p className="mt-4 max-w-2xl text-lg text-slate-600">
        A living resume for musicians and a marketplace for the people who book them.
      </p>
      <div className="mt-12 grid gap-12 lg:grid-cols-2">
        <section aria-labelledby="artists-title">
          <h2 id="artists-title" className="text-2xl font-semibold">
            For artists
          </h2>
          <StepList steps={FOR_ARTISTS} />
          <Link to="/profile-setup" className={buttonClasses("primary", "md", "mt-6")}>
            Create Your Profile
          </Link>
        </section>
        <section aria-labelledby="clients-title">
          <h2 id="clients-title" className="text-2xl font-semibold">
            For clients
          </h2>
          <StepList steps={FOR_CLIENTS} />
          <Link to="/artist-discovery" className={buttonClasses("outline", "md", "mt-6")}>
            Explore Artist Profiles
          </Link>
        </section>
      </div>
      <section id="trust-figures" aria-labelledby="trust-title" className="mt-16 max-w-3xl">
        <h2 id="trust-title" className="text-2xl font-semibold">
          How reliability figures are counted
        </h2>
        <p className="mt-3 text-slate-700">
          Every figure is computed from the bookings made here, at the moment the page is shown;
          nobody can set or edit it. An artist sees each booking behind their own figures on their
          dashboard.
        </p>
        <dl className="mt-6 space-y-5 text-slate-700">
          <div>
            <dt className="font-semibold text-slate-900">Response rate</dt>
            <dd className="mt-1">
              Of the booking requests the artist received in the last 90 days, the share they
              answered within {RESPONSE_WINDOW_HOURS} hours. Accepting, declining or writing to the
              client in the booking each count as an answer. A request still inside its first{" "}
              {RESPONSE_WINDOW_HOURS} hours without an answer is not counted yet, and neither is one
              the client withdrew in that time before any answer. A client's requests to the artist
              on one day count as one request, answered when any of them is.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Typical response time</dt>
            <dd className="mt-1">
              The median time from a request to its first answer, over the answered requests of the
              same 90 days.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">Cancellations</dt>
            <dd className="mt-1">
              Of the bookings the artist confirmed in the last 12 months, how many the artist
              cancelled afterwards. Cancellations by the client do not count against the artist.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">When they are shown</dt>
            <dd className="mt-1">
              A figure appears once at least {MIN_COUNTED} requests (or {MIN_COUNTED} confirmed
              bookings) stand behind it, so that one booking cannot swing it.
            </dd>
          </div>
          <div>
            <dt className="font-semibold text-slate-900">For artists about clients</dt>
            <dd className="mt-1">
              An artist reading a request sees how many bookings the client completed here and how
              many they cancelled.
            </dd>
          </div>
        </dl>
      </section>
    </main>
  );
}
