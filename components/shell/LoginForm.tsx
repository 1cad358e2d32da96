"use client";

import { useSyncExternalStore } from "react";
import { usePasswordSignIn } from "./usePasswordSignIn";
import { sameOriginUrl } from "@/lib/auth/redirect";

const noop = () => () => {};

/** False in the server HTML, true once React has hydrated (so the form's handler is attached). */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}

export function LoginForm({ callbackUrl, initialError }: { callbackUrl: string; initialError?: string | null }) {
  const { error, pending, onSubmit } = usePasswordSignIn(
    // A full navigation so the server renders the shell with the new session; only to this
    // origin, as the browser reads the URL (the server checked it too: lib/auth/redirect.ts).
    () => window.location.assign(sameOriginUrl(callbackUrl, window.location.origin)?.href ?? "/"),
    { initialError: initialError ?? null, leaves: true },
  );
  const hydrated = useHydrated();

  return (
    <form
      method="post"
      onSubmit={onSubmit}
      className="space-y-4"
      aria-describedby={error ? "login-error" : undefined}
      noValidate
    >
      <div>
        <label htmlFor="email" className="block text-sm font-medium text-slate-700">
          Email
        </label>
        <input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-indigo-500"
        />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium text-slate-700">
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 shadow-sm focus:border-indigo-500"
        />
      </div>
      {error ? (
        <p id="login-error" role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending || !hydrated}
        className="w-full rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-60"
      >
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
