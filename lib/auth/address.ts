/**
 * The client address a sign-in attempt is counted against (lib/auth/throttle.ts).
 *
 * - ASSESSOR_TRUSTED_PROXY_HOPS unset or 0 (the default: clients reach Assessor directly): the
 *   address of the TCP connection. A route handler never sees the socket, and Next.js fills
 *   X-Forwarded-For with it only when the client sent none, so a client could choose its own
 *   address; lib/auth/peer.ts therefore writes the socket's address into PEER_HEADER on every
 *   incoming request, replacing whatever the client sent under that name. Without it (a server
 *   started without instrumentation.ts), every client counts as one address, "unknown".
 * - ASSESSOR_TRUSTED_PROXY_HOPS=N (Assessor behind N reverse proxies that each append to
 *   X-Forwarded-For): the N-th address from the right of X-Forwarded-For, the one the outermost
 *   trusted proxy saw. Entries further left were written by the client and are ignored.
 *
 * Getting this wrong matters: behind a proxy with the default 0, every client has the proxy's
 * address, so the per-address sign-in limit counts the whole team as one client. A server that
 * receives forwarding headers it does not trust says so in its log (untrustedForwardingWarning,
 * at most once an hour; lib/auth/peer.ts checks every request).
 */
export const PEER_HEADER = "x-assessor-peer";
export const UNKNOWN_ADDRESS = "unknown";

type THeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: THeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

export function trustedProxyHops(env: Record<string, string | undefined> = process.env): number {
  const raw = env.ASSESSOR_TRUSTED_PROXY_HOPS?.trim();
  if (!raw) return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 10)
    throw new Error(`ASSESSOR_TRUSTED_PROXY_HOPS must be a whole number of proxies from 0 to 10, not "${raw}"`);
  return n;
}

/**
 * IPv4 addresses written as IPv6 (`::ffff:10.0.0.1`) count as the IPv4 address. At most 64
 * characters (an IPv6 address has 45): the address is part of the throttle's keys.
 */
const canonical = (a: string) =>
  a
    .trim()
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1")
    .toLowerCase()
    .slice(0, 64);

export function clientAddress(headers: THeaders, env: NodeJS.ProcessEnv = process.env): string {
  const hops = trustedProxyHops(env);
  if (hops > 0) {
    const chain = (header(headers, "x-forwarded-for") ?? "").split(",").map(canonical).filter(Boolean);
    const found = chain[Math.max(0, chain.length - hops)];
    return found ?? UNKNOWN_ADDRESS;
  }
  const peer = header(headers, PEER_HEADER);
  return peer ? canonical(peer) || UNKNOWN_ADDRESS : UNKNOWN_ADDRESS;
}

/** Headers a reverse proxy adds; with ASSESSOR_TRUSTED_PROXY_HOPS=0 they are ignored. */
export const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"] as const;
const WARN_EVERY_MS = 60 * 60_000;
let lastWarned = -Infinity;

/**
 * The log line for a request that carries forwarding headers while no proxy is trusted, or null
 * (none carried, a proxy is trusted, or the line was written less than an hour ago).
 */
export function untrustedForwardingWarning(
  headers: THeaders,
  env: NodeJS.ProcessEnv = process.env,
  now: number = Date.now(),
): string | null {
  const sent = FORWARDING_HEADERS.filter((h) => header(headers, h) !== undefined);
  if (sent.length === 0 || trustedProxyHops(env) > 0 || now - lastWarned < WARN_EVERY_MS) return null;
  lastWarned = now;
  return (
    `[auth] requests carry ${sent.join(", ")} but ASSESSOR_TRUSTED_PROXY_HOPS is 0, so they are ignored and each client is known by its connection's address. ` +
    "Behind a reverse proxy every client then has the proxy's address and shares one sign-in limit: set ASSESSOR_TRUSTED_PROXY_HOPS to the number of proxies in front of Assessor (README, Deployment). " +
    "Without a proxy, a client is sending these headers itself and nothing needs changing."
  );
}
