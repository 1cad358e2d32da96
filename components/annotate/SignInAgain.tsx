"use client";

import { usePasswordSignIn } from "@/components/shell/usePasswordSignIn";

/**
 * The session has ended (a 401 from the queue, an item or a grade): said at once, with the grades
 * kept on this device, and a sign-in form in place (next-auth's credentials endpoint, the page
 * stays: lib/auth/client.ts). `onSignedIn` runs after a successful sign-in (the page sends the
 * outbox and returns to the first ungraded item). Keys inside do what the browser does
 * (`data-native-keys`: Enter signs in, not submits a grade).
 */
export function SignInAgain({
  email,
  kept,
  onSignedIn,
}: {
  email: string;
  kept: number;
  onSignedIn: () => Promise<void>;
}) {
  const { error, pending, onSubmit } = usePasswordSignIn(onSignedIn);
  return (
    <section
      role="alert"
      aria-label="Signed out"
      data-native-keys=""
      data-testid="signed-out"
      className="space-y-2 rounded border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <p className="font-semibold">
        You are signed out: {kept} grade{kept === 1 ? " is" : "s are"} kept on this device.
      </p>
      <p>Sign in again to send {kept === 1 ? "it" : "them"} and go on where you left off.</p>
      <form onSubmit={(e) => void onSubmit(e)} className="flex flex-wrap items-end gap-2" noValidate>
        <label className="flex flex-col text-xs">
          Email
          <input
            name="email"
            type="email"
            autoComplete="username"
            defaultValue={email}
            required
            className="rounded border border-slate-300 bg-white px-2 py-1 text-sm"
          />
        </label>
        <label className="flex flex-col text-xs">
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            className="rounded border border-slate-300 bg-white px-2 py-1 text-sm"
          />
        </label>
        <button
          type="submit"
          disabled={pending}
          className="rounded bg-indigo-700 px-3 py-1 text-sm text-white disabled:opacity-60"
        >
          {pending ? "Signing in…" : "Sign in again"}
        </button>
        {error ? (
          <p role="alert" className="basis-full text-red-800">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
