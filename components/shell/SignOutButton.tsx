"use client";

import { useState } from "react";
import { signOut } from "@/lib/auth/client";

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      disabled={pending}
      onClick={async () => {
        setPending(true);
        await signOut().catch(() => undefined);
        window.location.assign("/login");
      }}
      className="rounded-md px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-100 disabled:opacity-60"
    >
      Sign out
    </button>
  );
}
