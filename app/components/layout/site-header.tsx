import { Menu, Music2, X } from "lucide-react";
import { useRef } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";

type NavItem = { to: string; label: string };

function useNavItems() {
  const { pathname } = useLocation();
  const primary: NavItem[] = [{ to: "/artist-discovery", label: "Discover" }];
  const account: NavItem[] = [
    { to: "/auth", label: "Sign In" },
    { to: "/auth?tab=signup", label: pathname === "/artist-discovery" ? "Join as Artist" : "Join" },
  ];
  return { primary, account };
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? "text-brand-700" : "text-slate-700 hover:text-slate-900"}`;

export function SiteHeader() {
  const { primary, account } = useNavItems();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
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
          <Link to={account[0]?.to ?? "/auth"} className={buttonClasses("ghost", "sm")}>
            {account[0]?.label}
          </Link>
          <Link to={account[1]?.to ?? "/auth"} className={buttonClasses("primary", "sm")}>
            {account[1]?.label}
          </Link>
        </nav>
        <MobileNav items={[...primary, ...account]} />
      </div>
    </header>
  );
}

/**
 * Under 768 px the navigation lives in a side sheet: a native modal dialog (focus kept inside,
 * Escape closes, page behind is inert). Invoker commands open it before JavaScript has loaded;
 * the click handler covers browsers without them.
 */
function MobileNav({ items }: { items: NavItem[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const supportsCommands = () =>
    typeof HTMLButtonElement !== "undefined" && "command" in HTMLButtonElement.prototype;
  return (
    <div className="md:hidden">
      <button
        type="button"
        className={buttonClasses("ghost", "icon")}
        aria-label="Open navigation"
        aria-haspopup="dialog"
        {...{ commandfor: "mobile-nav", command: "show-modal" }}
        onClick={() => {
          if (!supportsCommands()) dialog.current?.showModal();
        }}
      >
        <Menu aria-hidden className="h-6 w-6" />
      </button>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: Escape already closes a native modal dialog; the click handler only adds backdrop clicks. */}
      <dialog
        id="mobile-nav"
        ref={dialog}
        className="sheet"
        aria-labelledby="mobile-nav-title"
        {...{ closedby: "any" }}
        onClick={(event) => {
          // A click on the backdrop (the dialog itself, outside its panel) closes it.
          if (event.target === event.currentTarget) event.currentTarget.close();
        }}
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
              {...{ commandfor: "mobile-nav", command: "close" }}
              onClick={() => {
                if (!supportsCommands()) dialog.current?.close();
              }}
            >
              <X aria-hidden className="h-5 w-5" />
            </button>
          </div>
          <nav aria-label="Mobile" className="flex flex-col gap-1">
            {items.map((item) => (
              <NavLink
                key={item.to}
                to={item.to}
                className={navLinkClass}
                onClick={() => dialog.current?.close()}
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
        </div>
      </dialog>
    </div>
  );
}
