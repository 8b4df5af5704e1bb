import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  type ShouldRevalidateFunctionArgs,
  useRouteLoaderData,
} from "react-router";
import { frameActions, useFrameBehaviour } from "~/components/layout/frame-behaviour";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { ScrollRestoration } from "~/components/layout/scroll-restoration";
import { SiteFooter } from "~/components/layout/site-footer";
import { type HeaderUser, SiteHeader } from "~/components/layout/site-header";
import { ServerMarkup } from "~/components/ui/server-markup";
import { ToastProvider } from "~/components/ui/toast";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import type { Markup } from "~/lib/markup";
import { useNonce } from "~/lib/nonce";
import { PageStyles, withWholeStylesheet } from "~/lib/page-styles";
import { renderMarkup } from "~/lib/server-markup.server";
import { getToast } from "~/lib/toast.server";
import type { Route } from "./+types/root";

const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Ctitle%3EGigLedger%3C/title%3E%3Crect width='32' height='32' rx='7' fill='%235b3fd1'/%3E%3Cpath d='M12 22.5a3.5 3.5 0 1 1-2-3.16V9l12-2.5v12a3.5 3.5 0 1 1-2-3.16V10.1L12 11.8z' fill='%23fff'/%3E%3C/svg%3E";

export async function loader({ request, context }: Route.LoaderArgs) {
  const [{ toast, headers }, user] = await Promise.all([
    getToast(request),
    getCurrentUser(request, context),
  ]);
  const viewer: HeaderUser | null = user
    ? {
        name: user.name,
        email: user.email,
        roles: user.roles,
        artistProfileId: user.artistProfileId,
      }
    : null;
  // The frame is server markup (decision 022): drawn again for each page, since the header
  // marks the page one is on (see shouldRevalidate).
  return data(
    {
      toast,
      frame: {
        header: renderMarkup({ request, context }, <SiteHeader user={viewer} />),
        footer: renderMarkup({ request, context }, <SiteFooter />),
      },
    },
    { headers },
  );
}

/** A page drawn in the browser may use rules this page's own do not hold (decision 028). */
export const clientLoader = ({ serverLoader }: Route.ClientLoaderArgs) =>
  withWholeStylesheet(serverLoader());

export function shouldRevalidate({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;
}

/** The header and footer around every page; without the root's data (it failed), none. */
function Frame({
  frame,
  children,
}: {
  frame?: { header: Markup; footer: Markup };
  children: React.ReactNode;
}) {
  useFrameBehaviour();
  return (
    <>
      {frame ? (
        <ServerMarkup markup={frame.header} actions={frameActions} className="contents" />
      ) : null}
      <div className="flex-1">{children}</div>
      {frame ? <ServerMarkup markup={frame.footer} /> : null}
    </>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* Never changed in the browser, so written by the server only (React leaves head
            elements it did not render as they are): the browser's bundle does not carry them.
            The icon is inline, one request fewer on a cold load (the drawing of
            public/favicon.svg). */}
        {import.meta.env.SSR ? (
          <>
            <meta name="theme-color" content="#5b3fd1" />
            <link rel="icon" href={FAVICON} type="image/svg+xml" />
          </>
        ) : null}
        <Meta />
        <PageStyles nonce={nonce} />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const rootData = useRouteLoaderData<typeof loader>("root");
  return (
    <ToastProvider initial={rootData?.toast}>
      <Frame frame={rootData?.frame}>
        <Outlet />
      </Frame>
    </ToastProvider>
  );
}

/** The page frame stays around the error page: the header still offers a way on. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  return (
    <ToastProvider>
      <Frame frame={rootData?.frame}>
        <RouteErrorBoundary error={error} />
      </Frame>
    </ToastProvider>
  );
}
