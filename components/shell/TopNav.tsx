import Link from "next/link";
import { SignOutButton } from "./SignOutButton";

export type TNavLink = { href: string; label: string };

/** The top bar: the links the user's role allows, who is signed in, sign out. */
export function TopNav({
  links,
  user,
}: {
  links: TNavLink[];
  user: { name: string; email: string; role: string } | null;
}) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2">
        <Link href="/" className="font-semibold text-indigo-700">
          Assessor
        </Link>
        {user ? (
          <>
            <ul className="flex flex-wrap gap-1">
              {links.map((l) => (
                <li key={l.href}>
                  <Link href={l.href} className="rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
            <div className="ml-auto flex flex-wrap items-center gap-x-3 text-sm">
              <span className="text-slate-600">
                {user.name} <span className="text-slate-500">({user.role})</span>
              </span>
              <SignOutButton />
            </div>
          </>
        ) : null}
      </nav>
    </header>
  );
}
