/**
 * Browser-side sign-in and sign-out against next-auth's REST endpoints (/api/auth/*), so that
 * pages need no next-auth client library and no SessionProvider.
 */
import { signInErrorMessage } from "./messages.ts";

async function csrfToken(): Promise<string> {
  const r = await fetch("/api/auth/csrf", { credentials: "same-origin" });
  const { csrfToken } = (await r.json()) as { csrfToken: string };
  return csrfToken;
}

/** null on success, else the message to show (wrong password, locked, deactivated). */
export async function signInWithPassword(email: string, password: string): Promise<string | null> {
  const body = new URLSearchParams({ email, password, csrfToken: await csrfToken(), json: "true" });
  const r = await fetch("/api/auth/callback/credentials", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body,
  });
  let url: string | undefined;
  try {
    url = ((await r.json()) as { url?: string }).url;
  } catch {
    url = undefined;
  }
  // next-auth answers {url}: the callback URL on success, the sign-in page with ?error=CODE
  // otherwise (lib/auth/messages.ts; a refused attempt's wait is its Retry-After).
  if (!url) return `Sign-in failed (HTTP ${r.status}).`;
  return signInErrorMessage(
    new URL(url, window.location.origin).searchParams.get("error"),
    Number(r.headers.get("retry-after")) || null,
  );
}

export async function signOut(): Promise<void> {
  const body = new URLSearchParams({ csrfToken: await csrfToken(), json: "true" });
  await fetch("/api/auth/signout", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
    body,
  });
}
