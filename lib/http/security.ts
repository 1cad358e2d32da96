/**
 * Security headers and the cross-origin check. Pure functions, shared by
 * proxy.ts (pages: a per-request nonce), next.config.js (every other response: the same static
 * headers, written out there because the config is plain JavaScript) and lib/http/route.ts.
 */

import { trustedProxyHops } from "../auth/address.ts";
import { mediaHosts } from "../media/hosts.ts";

/** Where react-player's YouTube player comes from (youtube-video-element loads the IFrame API). */
const YOUTUBE = ["https://www.youtube.com", "https://www.youtube-nocookie.com"];

/**
 * The pages' policy. Scripts: Next's own carry the nonce (Next reads it from the request's CSP
 * header) and 'strict-dynamic' lets them load their chunks and YouTube's IFrame API; hosts are
 * listed for browsers without 'strict-dynamic'. Styles allow 'unsafe-inline' because React
 * renders style attributes on the server (charts, progress bars) which a nonce cannot cover, and
 * a style cannot run script. Frames: only YouTube's player; nobody may frame the app. Media: the
 * app's own files and the hosts the operator allows for remote videos (ASSESSOR_MEDIA_HOSTS,
 * lib/media/hosts.ts; malformed entries are left out, `assessor media check` names them).
 */
export function pageCsp(nonce: string, dev = false, env: Record<string, string | undefined> = process.env): string {
  const media = mediaHosts(env).hosts;
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' ${YOUTUBE.join(" ")} https://s.ytimg.com${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://i.ytimg.com",
    `media-src 'self' blob:${media.map((h) => ` ${h}`).join("")}`,
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws:" : ""}`,
    `frame-src ${YOUTUBE.join(" ")}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of everything that is not a page (API answers, media, static files). */
export const RESOURCE_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Sent with every response (next.config.js repeats these for the responses the proxy skips). */
export const STATIC_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** "https://app.example" from a URL or origin, or null when it is not one. */
function originOf(value: string): string | null {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The origins a page of this app can have, as seen by this request: the one it was sent to (the
 * scheme the server received it with and its Host), NEXTAUTH_URL's, and, only when a reverse proxy
 * is trusted (ASSESSOR_TRUSTED_PROXY_HOPS > 0, lib/auth/address.ts), the one the proxy names with
 * X-Forwarded-Proto and X-Forwarded-Host (the first value of each: the outermost proxy's).
 */
export function ownOrigins(req: Request, env: Record<string, string | undefined> = process.env): Set<string> {
  const own = new Set<string>();
  const add = (o: string | null) => o && own.add(o);
  const host = req.headers.get("host");
  if (host) add(originOf(`${new URL(req.url).protocol}//${host.trim()}`));
  if (env.NEXTAUTH_URL) add(originOf(env.NEXTAUTH_URL)); // a malformed one is reported by next-auth itself
  const forwardedHost = req.headers.get("x-forwarded-host")?.split(",")[0].trim();
  if (forwardedHost && trustedProxyHops(env) > 0) {
    const proto =
      req.headers.get("x-forwarded-proto")?.split(",")[0].trim().toLowerCase() ||
      new URL(req.url).protocol.replace(":", "");
    add(originOf(`${proto}://${forwardedHost}`));
  }
  return own;
}

/**
 * Whether a state-changing request comes from another origin: its Origin header (browsers send
 * it on every POST, PUT, PATCH, DELETE) is not one of ownOrigins (scheme, host and port all
 * compared), or Sec-Fetch-Site says cross-site. Requests without either header (the CLI, curl,
 * tests) are not browsers' and pass: they carry no ambient cookie by accident.
 */
export function isCrossOrigin(req: Request, env: Record<string, string | undefined> = process.env): boolean {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return false;
  if (req.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = req.headers.get("origin");
  if (origin === null) return false;
  // "null" (sandboxed frames, data: URLs) and garbage are foreign.
  const from = originOf(origin);
  return from === null || !ownOrigins(req, env).has(from);
}
