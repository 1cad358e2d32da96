/**
 * How long a session lasts, read from the environment when used:
 * - ASSESSOR_SESSION_MAX_HOURS (default 12): the absolute lifetime, counted from sign-in; no
 *   activity extends a session past it.
 * - ASSESSOR_SESSION_IDLE_MINUTES (default 120): a session not used for this long ends. Each
 *   request that may set a cookie (every API call; pages do not) renews the token once it is
 *   RENEW_AFTER old, so the idle limit holds to within RENEW_AFTER.
 * Both accept decimals (tests use seconds-long sessions). The idle limit is capped by the
 * absolute one.
 */
export type TSessionLifetime = { maxSeconds: number; idleSeconds: number; renewAfterSeconds: number };

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return n;
}

/** The token is renewed at most this often: every 5 minutes, or a quarter of the idle limit when that is shorter. */
const RENEW_AFTER_SECONDS = 300;

export function sessionLifetime(env: NodeJS.ProcessEnv = process.env): TSessionLifetime {
  const maxSeconds = positive(env, "ASSESSOR_SESSION_MAX_HOURS", 12) * 3600;
  const idleSeconds = Math.min(maxSeconds, positive(env, "ASSESSOR_SESSION_IDLE_MINUTES", 120) * 60);
  return { maxSeconds, idleSeconds, renewAfterSeconds: Math.min(RENEW_AFTER_SECONDS, idleSeconds / 4) };
}

/** The claims Assessor puts in the session JWT beside next-auth's own (iat, exp). */
export type TSessionClaims = {
  uid: string;
  /** The user's sessionVersion at sign-in: a later bump (sign-out, password, role, activity) revokes the token. */
  sv: number;
  /** Sign-in time, in seconds since the epoch: the absolute lifetime counts from here. */
  sat: number;
};

/** The claims of a decoded token, or null when they are missing or malformed. */
export function readClaims(token: unknown): (TSessionClaims & { iat: number; exp: number }) | null {
  if (typeof token !== "object" || token === null) return null;
  const t = token as Record<string, unknown>;
  const { uid, sv, sat, iat, exp } = t;
  if (
    typeof uid !== "string" ||
    !uid ||
    typeof sv !== "number" ||
    !Number.isInteger(sv) ||
    typeof sat !== "number" ||
    typeof iat !== "number" ||
    typeof exp !== "number"
  )
    return null;
  return { uid, sv, sat, iat, exp };
}

/** When the token stops being valid (ms since the epoch): its idle expiry or the absolute limit, whichever is first. */
export function sessionEndsAt(claims: { sat: number; exp: number }, lifetime: TSessionLifetime): number {
  return Math.min(claims.exp, claims.sat + lifetime.maxSeconds) * 1000;
}
