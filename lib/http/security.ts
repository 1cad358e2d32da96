/**
 * Security headers and the cross-origin check (issue 13 item 2). Pure functions, shared by
 * proxy.ts (pages: a per-request nonce), next.config.js (every other response: the same static
 * headers, written out there because the config is plain JavaScript) and lib/http/route.ts.
 */

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

/**
 * Whether a state-changing request comes from another origin: its Origin header (browsers send
 * it on every POST, PUT, PATCH, DELETE) names a host other than the one it was sent to (Host,
 * or X-Forwarded-Host behind a proxy) and other than NEXTAUTH_URL's, or Sec-Fetch-Site says
 * cross-site. Requests without either header (the CLI, curl, tests) are not browsers' and pass:
 * they carry no ambient cookie by accident.
 */
export function isCrossOrigin(req: Request, env: { NEXTAUTH_URL?: string } = process.env): boolean {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return false;
  const site = req.headers.get("sec-fetch-site");
  if (site === "cross-site") return true;
  const origin = req.headers.get("origin");
  if (origin === null) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true; // "null" (sandboxed frames, data: URLs) or garbage
  }
  const allowed = new Set<string>();
  for (const h of [req.headers.get("x-forwarded-host"), req.headers.get("host")]) if (h) allowed.add(h.split(",")[0].trim());
  if (env.NEXTAUTH_URL) {
    try {
      allowed.add(new URL(env.NEXTAUTH_URL).host);
    } catch {
      // a malformed NEXTAUTH_URL is reported by next-auth itself
    }
  }
  return !allowed.has(host);
}
