"use client";

import { useState, type FormEvent } from "react";
import { signInWithPassword } from "@/lib/auth/client";

/**
 * A sign-in form's submit (its `email` and `password` fields) through next-auth's credentials
 * endpoint (lib/auth/client.ts): `error` says why it failed, `pending` while it runs. `onSignedIn`
 * runs after a successful sign-in; `leaves`: it navigates away, so the form stays pending.
 */
export function usePasswordSignIn(
  onSignedIn: () => Promise<void> | void,
  { initialError = null, leaves = false }: { initialError?: string | null; leaves?: boolean } = {},
) {
  const [error, setError] = useState<string | null>(initialError);
  const [pending, setPending] = useState(false);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setPending(true);
    setError(null);
    try {
      const message = await signInWithPassword(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
      if (message) setError(message);
      else await onSignedIn();
      if (message || !leaves) setPending(false);
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
      setPending(false);
    }
  };
  return { error, pending, onSubmit };
}
