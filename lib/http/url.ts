/**
 * Request targets whose path cannot be percent-decoded (`%FF`, `%ED%A0%80`: bytes that are not
 * UTF-8, or a `%` without two hex digits). Next.js decodes the path while matching dynamic routes,
 * before proxy.ts or any handler runs, and answers such a path with a bare 500 without the
 * security headers. lib/auth/peer.ts's request hook therefore rewrites the
 * target first: in each path segment that does not decode, every `%` is written as `%25`, so the
 * segment decodes to its literal text ("%FF"). No id or name contains that text, so the route's
 * own checks answer (404 with the headers, lib/bounds.ts intId). Paths that decode are unchanged,
 * and so is the query string (URLSearchParams reads a malformed escape as U+FFFD, never throws).
 */
export function decodablePath(target: string): string {
  const q = target.search(/[?#]/);
  const path = q < 0 ? target : target.slice(0, q);
  if (!path.includes("%") || decodes(path)) return target;
  const repaired = path
    .split("/")
    .map((segment) => (decodes(segment) ? segment : segment.replaceAll("%", "%25")))
    .join("/");
  return q < 0 ? repaired : repaired + target.slice(q);
}

function decodes(s: string): boolean {
  try {
    decodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}
