import ArrowRight from "lucide-react/icons/arrow-right";
import BadgeCheck from "lucide-react/icons/badge-check";
import ClipboardList from "lucide-react/icons/clipboard-list";
import Search from "lucide-react/icons/search";
import Users from "lucide-react/icons/users";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { ServerMarkup } from "~/components/ui/server-markup";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import type { ArtistSummary } from "~/features/artists/artist-summary.server";
import { getFeaturedArtists } from "~/features/artists/discovery.server";
import { FeaturedArtistCard } from "~/features/artists/featured-artist-card";
import { publicPageHeaders } from "~/lib/cache-headers";
import { pageMeta } from "~/lib/meta";
import { renderMarkup } from "~/lib/server-markup.server";
import type { Route } from "./+types/home";

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "GigLedger",
    description:
      "Every gig logged and verified. Build a performance history venues and clients trust, and get booked.",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const featured = await getFeaturedArtists(context, viewer, { limit: 2 });
  // Nothing on this page needs JavaScript: it is drawn on the server only (decision 022).
  return { page: renderMarkup({ request, context }, <HomePage featured={featured} />) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return <ServerMarkup markup={loaderData.page} />;
}

const STEPS = [
  {
    icon: ClipboardList,
    title: "Automatic Logging",
    text: "Every gig booked on GigLedger is logged for you and verified once the client rates it. Sessions, rehearsals and recordings join it in one place.",
  },
  {
    icon: BadgeCheck,
    title: "Build Credibility",
    text: "Verified venues and an authentic history: fellow musicians vouch for the sessions you played together.",
  },
  {
    icon: Users,
    title: "Social Proof",
    text: "A social ledger that venues, clients and fellow musicians can reference before they book you.",
  },
];

function HomePage({ featured }: { featured: ArtistSummary[] }) {
  return (
    <main id="main">
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center sm:py-28">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
            The verified resume for working musicians
          </p>
          <h1 className="mx-auto mt-4 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl">
            Your performance history, verified.
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
            GigLedger logs every gig you play, collects verifications from the clients and musicians
            who were there, and turns it into a profile that gets you booked.
          </p>
          <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
            <Link to="/profile-setup" className={buttonClasses("primary", "lg")}>
              Start Building Your Legacy
              <ArrowRight aria-hidden className="h-5 w-5" />
            </Link>
            <Link to="/artist-discovery" className={buttonClasses("outline", "lg")}>
              <Search aria-hidden className="h-5 w-5" />
              Explore Artist Profiles
            </Link>
          </div>
        </div>
      </section>

      <section aria-labelledby="how-title" className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="how-title" className="text-center text-3xl font-bold">
          How it Works
        </h2>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {STEPS.map((step) => (
            <li key={step.title} className="rounded-2xl border border-slate-200 p-6">
              <step.icon aria-hidden className="h-8 w-8 text-brand-600" />
              <h3 className="mt-4 text-lg font-semibold">{step.title}</h3>
              <p className="mt-2 text-slate-600">{step.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="featured-title" className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 id="featured-title" className="text-center text-3xl font-bold">
            Featured Artists
          </h2>
          <div className="mt-10 grid gap-6 md:grid-cols-3">
            {featured.map((artist) => (
              <FeaturedArtistCard key={artist.id} artist={artist} />
            ))}
            <Link
              to="/artist-discovery"
              className="flex flex-col items-center justify-center rounded-2xl border-2 border-dashed border-slate-300 p-6 text-center hover:border-brand-600"
            >
              <Search aria-hidden className="h-8 w-8 text-brand-600" />
              <span className="mt-3 text-lg font-semibold">Discover More</span>
              <span className="mt-1 text-sm text-slate-600">
                Browse artists by genre, location and instrument
              </span>
            </Link>
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-20 text-center">
        <h2 className="text-3xl font-bold">Ready to prove your track record?</h2>
        <p className="mx-auto mt-4 max-w-xl text-slate-600">
          Create your artist profile in a few minutes. Your history starts with your next gig.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/profile-setup" className={buttonClasses("primary", "lg")}>
            Create Your Profile
          </Link>
          <Link to="/discover" className={buttonClasses("outline", "lg")}>
            See How It Works
          </Link>
        </div>
      </section>
    </main>
  );
}
