/**
 * Sign-in over HTTP with control over what the attacker controls: the client address (as a
 * trusted proxy's X-Forwarded-For), the callback URL, extra headers. Returns next-auth's answer
 * instead of throwing (tests/helpers/login.ts apiSession is for tests where sign-in just works).
 */
import { signInErrorMessage } from "../../lib/auth/messages.ts";

/** `code`: the `error` parameter of next-auth's url; `error`: what the login form shows for it (lib/auth/client.ts). */
export type TSignIn = {
  status: number;
  cookie: string | null;
  url: string | null;
  code: string | null;
  error: string | null;
  retryAfter: string | null;
};

function cookiePairs(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]);
}

/** A Cookie header from several lists of name=value pairs, later ones replacing earlier ones. */
export function mergeCookies(...lists: string[][]): string {
  const jar = new Map<string, string>();
  for (const list of lists) for (const pair of list) jar.set(pair.slice(0, pair.indexOf("=")), pair);
  return [...jar.values()].join("; ");
}

/** The cookie header after a response's Set-Cookie (a renewed session token replaces the old). */
export function updateCookies(cookie: string, res: Response): string {
  return mergeCookies(cookie.split("; ").filter(Boolean), cookiePairs(res));
}

export async function csrf(baseUrl: string, cookie = ""): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${baseUrl}/api/auth/csrf`, { headers: cookie ? { Cookie: cookie } : {} });
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { token: csrfToken, cookie: updateCookies(cookie, res) };
}

export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  opts: {
    from?: string;
    callbackUrl?: string;
    headers?: Record<string, string>;
    csrf?: { token: string; cookie: string };
  } = {},
): Promise<TSignIn> {
  const c = opts.csrf ?? (await csrf(baseUrl));
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: c.cookie,
      ...(opts.from ? { "X-Forwarded-For": opts.from } : {}),
      ...opts.headers,
    },
    body: new URLSearchParams({
      email,
      password,
      csrfToken: c.token,
      json: "true",
      ...(opts.callbackUrl !== undefined ? { callbackUrl: opts.callbackUrl } : {}),
    }),
  });
  const cookie = updateCookies(c.cookie, res);
  const body = (await res.json().catch(() => ({}))) as { url?: string };
  const url = body.url ?? null;
  const code = url ? new URL(url, baseUrl).searchParams.get("error") : null;
  const retryAfter = res.headers.get("retry-after");
  return {
    status: res.status,
    cookie: /session-token=/.test(cookie) ? cookie : null,
    url,
    code,
    error: signInErrorMessage(code, Number(retryAfter) || null),
    retryAfter,
  };
}

/** Signs out through next-auth (the form's POST), with the session's own cookies. */
export async function signOut(baseUrl: string, cookie: string): Promise<number> {
  const c = await csrf(baseUrl, cookie);
  const res = await fetch(`${baseUrl}/api/auth/signout`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: c.cookie },
    body: new URLSearchParams({ csrfToken: c.token, json: "true" }),
  });
  await res.arrayBuffer();
  return res.status;
}
