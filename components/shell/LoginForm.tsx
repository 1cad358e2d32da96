"use client";

import { useState, useSyncExternalStore, type FormEvent } from "react";
import { signInWithPassword } from "@/lib/auth/client";
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
  const [error, setError] = useState<string | null>(initialError ?? null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      const message = await signInWithPassword(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
      if (message) {
        setError(message);
        setPending(false);
        return;
      }
      // A full navigation so the server renders the shell with the new session; only to this
      // origin, as the browser reads the URL (the server checked it too: lib/auth/redirect.ts).
      window.location.assign(sameOriginUrl(callbackUrl, window.location.origin)?.href ?? "/");
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
      setPending(false);
    }
  }

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
