/**
 * The four kinds of video media and the remote hosts the operator allows.
 *
 * - file: a `path`, served by the app from a media root (lib/media/root.ts, /api/media/:id);
 * - youtube: a YouTube URL, played in YouTube's frame (the page CSP's frame-src);
 * - url: any other http(s) URL, played by the browser's <video> from that host, which the page
 *   CSP's media-src must name: ASSESSOR_MEDIA_HOSTS, comma-separated origins
 *   (`https://media.example.org`, `http://10.0.0.5:8080`) or hosts (`media.example.org`: either
 *   scheme, as a CSP host-source without a scheme);
 * - none: neither url nor path: transcript-only items (the annotator reads the text and its times).
 *
 * Pure functions: used by the import (warnings), `assessor media check`, the annotator's view
 * (whether a URL may play) and lib/http/security.ts (the CSP).
 */
export type TMediaKind = "file" | "youtube" | "url" | "none";

export const MEDIA_HOSTS_VAR = "ASSESSOR_MEDIA_HOSTS";

const YOUTUBE_URL = /^https?:\/\/(www\.|m\.)?(youtube\.com|youtu\.be|youtube-nocookie\.com)\//i;
/** An entry of ASSESSOR_MEDIA_HOSTS: an origin or a host (name or IPv4, optional port), nothing a CSP could misread. */
const ENTRY = /^(https?:\/\/)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?\/?$/i;

export function mediaKind(video: { url: string | null; path: string | null }): TMediaKind {
  if (video.path) return "file";
  if (!video.url) return "none";
  return YOUTUBE_URL.test(video.url) ? "youtube" : "url";
}

/** The valid entries of ASSESSOR_MEDIA_HOSTS (lower case, no trailing slash) and the ones ignored as malformed. */
export function mediaHosts(env: Record<string, string | undefined> = process.env): {
  hosts: string[];
  ignored: string[];
} {
  const hosts: string[] = [];
  const ignored: string[] = [];
  for (const raw of (env.ASSESSOR_MEDIA_HOSTS ?? "").split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    if (ENTRY.test(entry)) hosts.push(entry.toLowerCase().replace(/\/$/, ""));
    else ignored.push(entry);
  }
  return { hosts, ignored };
}

/** Whether a remote (non-YouTube) URL's host is one the operator allows. */
export function urlAllowed(url: string, env: Record<string, string | undefined> = process.env): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const port = u.port ? `:${u.port}` : "";
  return mediaHosts(env).hosts.some((h) =>
    h.includes("://") ? h === `${u.protocol}//${u.host}` || h === u.origin : h === `${u.hostname}${port}`,
  );
}

/** Why a video's URL will not play in the annotator's browser, or null when it may. */
export function urlMediaProblem(url: string, env: Record<string, string | undefined> = process.env): string | null {
  if (YOUTUBE_URL.test(url) || urlAllowed(url, env)) return null;
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // the import's schema has checked it is an http(s) URL
  }
  return `the host of ${url} is not allowed: the browser will refuse to play it until ${MEDIA_HOSTS_VAR} names ${origin} (comma-separated origins or hosts)`;
}
