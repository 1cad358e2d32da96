/**
 * Where the browser may be sent after sign-in. A callback URL is read the way a
 * browser reads it — WHATWG URL parsing against the app's origin, which strips leading and
 * trailing C0 controls and spaces, removes every TAB, LF and CR, and treats `\` as `/` — and is
 * followed only when it lands on the app's own origin. Checking the raw text instead
 * (`startsWith("/")`) let `/%09/evil.example` (a TAB once decoded) through: the browser drops the
 * TAB and reads `//evil.example`, another host.
 *
 * Pure (no server or browser APIs): used by next-auth's redirect callback, the login page and the
 * login form's navigation.
 */

/** The absolute URL `value` leads to from `origin`, when it stays on that origin; otherwise null. */
export function sameOriginUrl(value: string | null | undefined, origin: string): URL | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin || url.username || url.password) return null;
  // A path that begins with `//` (e.g. from `/.//evil.example`) would be read as another host if
  // it were ever given to the browser as a relative URL.
  if (url.pathname.startsWith("//")) return null;
  return url;
}

// Stands for the app's origin where the real one is not known (a server page without
// NEXTAUTH_URL): a value that resolves elsewhere is refused either way.
const PLACEHOLDER_ORIGIN = "http://assessor.invalid";

/**
 * The same-origin path (path, query and fragment, normalised as the browser would) for a
 * callback URL, or null when it would leave `origin`.
 */
export function safeCallback(value: string | null | undefined, origin: string = PLACEHOLDER_ORIGIN): string | null {
  const url = sameOriginUrl(value, origin);
  return url ? `${url.pathname}${url.search}${url.hash}` : null;
}
