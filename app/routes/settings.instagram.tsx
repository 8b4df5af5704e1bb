import Camera from "lucide-react/icons/camera";
import Clock from "lucide-react/icons/clock";
import Info from "lucide-react/icons/info";
import Lock from "lucide-react/icons/lock";
import ShieldCheck from "lucide-react/icons/shield-check";
import AlertTriangle from "lucide-react/icons/triangle-exclamation-point";
import Users from "lucide-react/icons/users";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { CopyUrl } from "~/features/instagram/copy-url";
import { instagramRequiredUrls } from "~/features/instagram/instagram.server";
import { hasRole } from "~/lib/actor";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/settings.instagram";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({
    title: "Instagram Settings",
    description: "Connect Instagram to discover artists you follow who have played together.",
  }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  if (!user) return { signedIn: false, urls: null } as const;
  // The setup guide, its URLs and troubleshooting are for whoever runs the site: admins, or
  // anyone while the app is local (see docs/product.md, Instagram).
  const operator = !context.env.isPublic || hasRole(user, "admin");
  return {
    signedIn: true,
    urls: operator ? instagramRequiredUrls(context.env.appUrl) : null,
  } as const;
}

function Panel({
  icon: Icon,
  title,
  level = "h2",
  children,
}: {
  icon: typeof Info;
  title: string;
  /** h3 inside the operators' section. */
  level?: "h2" | "h3";
  children: ReactNode;
}) {
  const Heading = level;
  return (
    <section className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-6" aria-label={title}>
      <Heading className="flex items-center gap-2 text-lg font-semibold">
        <Icon aria-hidden className="h-5 w-5 text-brand-600" /> {title}
      </Heading>
      <div className="mt-3 space-y-3 text-slate-700">{children}</div>
    </section>
  );
}

export default function InstagramSettings({ loaderData }: Route.ComponentProps) {
  if (!loaderData.signedIn) {
    return (
      <main id="main" className="mx-auto max-w-xl px-4 py-24 text-center">
        <Lock aria-hidden className="mx-auto h-10 w-10 text-slate-400" />
        <h1 className="mt-4 text-2xl font-semibold">Authentication Required</h1>
        <p className="mt-2 text-slate-600">Please log in to manage your Instagram settings.</p>
        <Link
          to={`/auth?redirectTo=${encodeURIComponent("/settings/instagram")}`}
          className={buttonClasses("primary", "md", "mt-8")}
        >
          Sign In
        </Link>
      </main>
    );
  }
  const { urls } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-8 sm:py-12">
      <div>
        <Link to="/settings" className="text-sm text-brand-700 underline">
          Back to Settings
        </Link>
        <h1 className="mt-2 flex items-center gap-2 text-3xl font-bold">
          <Camera aria-hidden className="h-7 w-7 text-fuchsia-600" /> Instagram Settings
        </h1>
      </div>

      <section
        aria-label="Coming Soon"
        className="rounded-2xl border border-fuchsia-200 bg-gradient-to-br from-fuchsia-50 to-orange-50 p-5 sm:p-6"
      >
        <h2 className="flex items-center gap-2 text-lg font-semibold text-fuchsia-900">
          <Clock aria-hidden className="h-5 w-5" /> Coming Soon
        </h2>
        <p className="mt-2 text-slate-700">
          Connecting an Instagram account is not available yet. When it is, you will be able to
          connect here and see which artists you follow have played with the artists you browse.
        </p>
      </section>

      <Panel icon={Users} title="Collaboration discovery">
        <p>
          Once connected, when you look at an artist's profile GigLedger checks which of the artists
          you follow on Instagram have played in a session with them, as the session's artist or as
          a verified collaborator or verifier. If there is at least one, the profile shows how many.
        </p>
      </Panel>

      <Panel icon={Lock} title="Privacy">
        <ul className="list-disc space-y-1 pl-6">
          <li>We only read which accounts you follow, to match them with GigLedger artists.</li>
          <li>We never post to Instagram or read your messages.</li>
          <li>Your Instagram data is deleted immediately when you disconnect.</li>
          <li>
            See the{" "}
            <Link to="/privacy-policy" className="text-brand-700 underline">
              privacy policy
            </Link>{" "}
            and{" "}
            <Link to="/data-deletion" className="text-brand-700 underline">
              data deletion
            </Link>{" "}
            pages.
          </li>
        </ul>
      </Panel>

      <p className="rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
        <strong>Limitations:</strong> only artists with a GigLedger profile that their Instagram
        account is linked to can be matched, and only sessions recorded on GigLedger count as
        collaborations.
      </p>
      {urls ? (
        <section aria-labelledby="operators-title" className="space-y-6">
          <h2 id="operators-title" className="text-xl font-semibold">
            For the site's operators
          </h2>
          <Panel icon={Info} title="Setup guide" level="h3">
            <p>For the person setting up GigLedger's Instagram app in Meta for Developers:</p>
            <ol className="list-decimal space-y-1 pl-6">
              <li>
                Create an app of type Business and add the Instagram product with Instagram Login.
              </li>
              <li>
                Add the redirect URI below to the app's Valid OAuth Redirect URIs, exactly as shown.
              </li>
              <li>
                Enter the privacy policy and data deletion URLs below in the app's basic settings.
              </li>
              <li>Add your Instagram account as a tester while the app is in development mode.</li>
            </ol>
          </Panel>

          <Panel icon={ShieldCheck} title="Required URLs" level="h3">
            <CopyUrl label="OAuth Redirect URI" url={urls.redirectUri} />
            <CopyUrl label="Privacy Policy URL" url={urls.privacyPolicyUrl} />
            <CopyUrl label="Data Deletion URL" url={urls.dataDeletionUrl} />
            <p className="text-sm text-slate-600">
              These are built from this server's public address (APP_URL). Change APP_URL and they
              change with it.
            </p>
          </Panel>

          <Panel icon={AlertTriangle} title="Troubleshooting" level="h3">
            <dl className="space-y-3">
              <div>
                <dt className="font-medium text-slate-900">Invalid platform app</dt>
                <dd>
                  The app ID is not an Instagram app, or the Instagram product has not been added.
                  Add Instagram (Instagram Login) to the app in Meta for Developers and use its
                  Instagram app ID.
                </dd>
              </div>
              <div>
                <dt className="font-medium text-slate-900">Redirect URI mismatch</dt>
                <dd>
                  The redirect URI in the app settings must match the one above character for
                  character, including https and the path.
                </dd>
              </div>
              <div>
                <dt className="font-medium text-slate-900">Popup blocked</dt>
                <dd>
                  The Instagram sign-in opens in a popup. Allow popups for this site in your browser
                  and try again.
                </dd>
              </div>
            </dl>
          </Panel>
        </section>
      ) : null}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
