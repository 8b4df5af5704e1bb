import ChevronDown from "lucide-react/icons/chevron-down";
import Music2 from "lucide-react/icons/eighth-note";
import Menu from "lucide-react/icons/menu";
import X from "lucide-react/icons/x";
import { Link, NavLink, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { hasRole, type Role } from "~/lib/actor";
import { MOBILE_NAV_ID, USER_MENU_ID } from "./frame-behaviour";

export type HeaderUser = {
  name: string;
  email: string;
  roles: Role[];
  artistProfileId: string | null;
};

type NavItem = { to: string; label: string };

function navItems(user: HeaderUser | null, pathname: string) {
  const primary: NavItem[] = [{ to: "/artist-discovery", label: "Discover" }];
  if (!user) {
    return {
      primary,
      account: [
        { to: "/auth", label: "Sign In" },
        pathname === "/artist-discovery"
          ? { to: "/auth?tab=signup&purpose=artist", label: "Join as Artist" }
          : { to: "/auth?tab=signup", label: "Join" },
      ],
    };
  }
  // Dashboard is the artist's own, or My Bookings for everyone else: nobody who came to book is
  // sent to create an artist profile (see docs/product.md, Other pages).
  primary.push({
    to: user.artistProfileId ? "/artist-dashboard" : "/client-bookings",
    label: "Dashboard",
  });
  if (user.artistProfileId && hasRole(user, "client"))
    primary.push({ to: "/client-bookings", label: "My Bookings" });
  // Instagram is not a main item: it does not exist yet (its page is reached from Settings).
  return { primary, account: [] as NavItem[] };
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "text-brand-700" : "text-slate-700 hover:text-slate-900"}`;

/**
 * The header of every page, after its "Skip to content" link: server markup, drawn by the root loader for each page (decision 022),
 * so its menus are native (a popover, a modal dialog) and its behaviour is in frame-behaviour.ts.
 */
export function SiteHeader({ user }: { user: HeaderUser | null }) {
  const { pathname } = useLocation();
  const { primary, account } = navItems(user, pathname);
  return (
    <>
      {/* The page's first stop for the keyboard. */}
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Link to="/" className="flex items-center gap-2 text-lg font-bold text-slate-900">
            <Music2 aria-hidden className="h-6 w-6 text-brand-600" />
            GigLedger
          </Link>
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {primary.map((item) => (
              <NavLink key={item.to} to={item.to} className={navLinkClass}>
                {item.label}
              </NavLink>
            ))}
            <span className="mx-2 h-6 w-px bg-slate-200" aria-hidden />
            {user ? (
              <UserMenu user={user} />
            ) : (
              <>
                <Link to={account[0]?.to ?? "/auth"} className={buttonClasses("ghost", "sm")}>
                  {account[0]?.label}
                </Link>
                <Link to={account[1]?.to ?? "/auth"} className={buttonClasses("primary", "sm")}>
                  {account[1]?.label}
                </Link>
              </>
            )}
          </nav>
          <MobileNav items={[...primary, ...account]} user={user} />
        </div>
      </header>
    </>
  );
}

function SignOutButton({ className }: { className: string }) {
  return (
    <form method="post" action="/auth/sign-out">
      <button type="submit" className={className}>
        Sign out
      </button>
    </form>
  );
}

const menuItemClass =
  "block w-full rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100";

/**
 * The user menu is a popover: it opens, closes on Escape or an outside click, and returns focus
 * without any JavaScript of ours (`useFrameBehaviour` closes it when the page changes).
 */
function UserMenu({ user }: { user: HeaderUser }) {
  return (
    <>
      <button
        type="button"
        popoverTarget={USER_MENU_ID}
        className={buttonClasses("ghost", "sm")}
        aria-haspopup="true"
      >
        <span
          className="flex h-7 w-7 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-700"
          aria-hidden
        >
          {user.name.charAt(0).toUpperCase()}
        </span>
        <span className="sr-only">Account menu for </span>
        <span className="max-w-32 truncate">{user.name}</span>
        <ChevronDown aria-hidden className="h-4 w-4" />
      </button>
      <div
        id={USER_MENU_ID}
        popover="auto"
        className="fixed inset-auto top-16 right-4 m-0 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-lg"
      >
        <div className="border-b border-slate-100 px-3 pt-1 pb-2">
          <p className="truncate text-sm font-semibold">{user.name}</p>
          <p className="truncate text-xs text-slate-500">{user.email}</p>
        </div>
        <nav aria-label="Account" className="pt-1">
          <Link
            to={user.artistProfileId ? "/artist-dashboard" : "/profile-setup"}
            className={menuItemClass}
          >
            {user.artistProfileId ? "Artist Dashboard" : "Create artist profile"}
          </Link>
          {!user.artistProfileId || hasRole(user, "client") ? (
            <Link to="/client-bookings" className={menuItemClass}>
              My Bookings
            </Link>
          ) : null}
          <Link to="/settings" className={menuItemClass}>
            Settings
          </Link>
          <SignOutButton className={menuItemClass} />
        </nav>
      </div>
    </>
  );
}

/**
 * Under 768 px the navigation lives in a side sheet: a native modal dialog (focus kept inside,
 * Escape or a click beside it closes, page behind is inert), opened and closed by invoker
 * commands without JavaScript; `frameActions.command` does it in browsers without them.
 */
function MobileNav({ items, user }: { items: NavItem[]; user: HeaderUser | null }) {
  return (
    <div className="md:hidden">
      <button
        type="button"
        className={buttonClasses("ghost", "icon")}
        aria-label="Open navigation"
        aria-haspopup="dialog"
        data-action="command"
        {...{ commandfor: MOBILE_NAV_ID, command: "show-modal" }}
      >
        <Menu aria-hidden className="h-6 w-6" />
      </button>
      <dialog
        id={MOBILE_NAV_ID}
        className="sheet"
        aria-labelledby="mobile-nav-title"
        {...{ closedby: "any" }}
      >
        <div className="flex h-full flex-col p-4">
          <div className="mb-4 flex items-center justify-between">
            <h2 id="mobile-nav-title" className="text-lg font-semibold">
              Navigation
            </h2>
            <button
              type="button"
              className={buttonClasses("ghost", "icon")}
              aria-label="Close navigation"
              data-action="command"
              {...{ commandfor: MOBILE_NAV_ID, command: "close" }}
            >
              <X aria-hidden className="h-5 w-5" />
            </button>
          </div>
          {user ? (
            <div className="mb-3 border-b border-slate-100 px-3 pb-3">
              <p className="truncate text-sm font-semibold">{user.name}</p>
              <p className="truncate text-xs text-slate-500">{user.email}</p>
            </div>
          ) : null}
          <nav aria-label="Mobile" className="flex flex-col gap-1">
            {items.map((item) => (
              <NavLink key={item.to} to={item.to} className={navLinkClass}>
                {item.label}
              </NavLink>
            ))}
            {user ? (
              <>
                {user.artistProfileId ? null : (
                  <NavLink to="/profile-setup" className={navLinkClass}>
                    Create artist profile
                  </NavLink>
                )}
                <NavLink to="/settings" className={navLinkClass}>
                  Settings
                </NavLink>
                <SignOutButton className="rounded-md px-3 py-2 text-left text-sm font-medium text-slate-700 hover:text-slate-900" />
              </>
            ) : null}
          </nav>
        </div>
      </dialog>
    </div>
  );
}
