import type { Page } from "playwright-core";
import { signInErrorMessage } from "../../lib/auth/messages.ts";

/**
 * Signing in from tests.
 * - loginAs: through the login page, as a person would (for tests of the UI).
 * - apiSession: through next-auth's endpoints, returning a Cookie header for fetch-based walks
 *   of pages and route handlers (for tests where the login itself is not under test).
 */
export async function loginAs(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 30_000 }),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
}

function cookiePairs(res: Response): string[] {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]);
}

function mergeCookies(...lists: string[][]): string {
  const jar = new Map<string, string>();
  for (const list of lists) for (const pair of list) jar.set(pair.slice(0, pair.indexOf("=")), pair);
  return [...jar.values()].join("; ");
}

/** A Cookie header carrying a valid session for this user; throws with the server's reason otherwise. */
export async function apiSession(baseUrl: string, email: string, password: string): Promise<string> {
  const csrfRes = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const csrfCookies = cookiePairs(csrfRes);
  const res = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: mergeCookies(csrfCookies) },
    body: new URLSearchParams({ email, password, csrfToken, json: "true" }),
  });
  const cookies = mergeCookies(csrfCookies, cookiePairs(res));
  if (!/session-token=/.test(cookies)) {
    // With json=true next-auth answers {url} instead of a Location header.
    let location = res.headers.get("location") ?? "";
    if (!location) location = ((await res.json().catch(() => ({}))) as { url?: string }).url ?? "";
    // The code in the URL, as the login form shows it (lib/auth/messages.ts).
    const error = signInErrorMessage(
      location ? new URL(location, baseUrl).searchParams.get("error") : null,
      Number(res.headers.get("retry-after")) || null,
    );
    throw new Error(`sign-in as ${email} failed (HTTP ${res.status}${error ? `: ${error}` : ""})`);
  }
  return cookies;
}
