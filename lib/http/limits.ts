import { AppError } from "../errors.ts";

/**
 * Request limits (issue 13 item 7): the size of an upload and of a JSON body, and per-key rates
 * (sign-in attempts per email, submissions per user). Each is configurable by an environment
 * variable read when used, with a clear message when exceeded.
 */

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return n;
}

/** ASSESSOR_UPLOAD_LIMIT_MB: the largest file the lead may upload (default 512 MB). */
export const uploadLimitBytes = () => Math.floor(positiveNumber("ASSESSOR_UPLOAD_LIMIT_MB", 512) * 1024 * 1024);
/** ASSESSOR_JSON_LIMIT_KB: the largest JSON request body (default 1024 KB). */
export const jsonLimitBytes = () => Math.floor(positiveNumber("ASSESSOR_JSON_LIMIT_KB", 1024) * 1024);

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${+(bytes / 1024).toFixed(1)} KB`;
}

/**
 * The request body as bytes, refused with 413 ("too_large") as soon as it is known to exceed
 * `limit`: at once when Content-Length says so, otherwise when the bytes read pass it (the rest
 * is not read: the stream is cancelled). Reading yields to the event loop between chunks, so the
 * server keeps answering other requests during a large upload.
 */
export async function readBodyLimited(req: Request, limit: number, setting: string): Promise<Buffer> {
  const tooLarge = (size?: number) => new AppError("too_large", `the request body${size ? ` (${formatSize(size)})` : ""} is larger than the limit of ${formatSize(limit)} (${setting})`, { limitBytes: limit });
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(declared);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/**
 * A token bucket per key, in this server's memory: `perMinute` requests a minute on average, up
 * to `burst` at once. With several app servers each keeps its own (the sign-in lock that matters
 * for guessing passwords is in the database: lib/auth/throttle.ts).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly perMinute: () => number,
    private readonly burst: () => number,
  ) {}

  /** Takes one token for `key`; when none is left, the seconds until one is (for Retry-After). */
  take(key: string, now = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const rate = this.perMinute() / 60_000;
    const cap = Math.max(1, this.burst());
    const b = this.buckets.get(key) ?? { tokens: cap, at: now };
    b.tokens = Math.min(cap, b.tokens + (now - b.at) * rate);
    b.at = now;
    if (this.buckets.size > 10_000) this.prune(now, rate, cap);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      this.buckets.set(key, b);
      return { ok: true };
    }
    this.buckets.set(key, b);
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - b.tokens) / rate / 1000)) };
  }

  /** Forgets full buckets, so that memory stays bounded. */
  private prune(now: number, rate: number, cap: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + (now - b.at) * rate >= cap) this.buckets.delete(k);
  }
}

/** ASSESSOR_SUBMIT_RATE_PER_MINUTE: grades and decisions per user (default 300 a minute, bursts of half that). */
const submitRate = () => positiveNumber("ASSESSOR_SUBMIT_RATE_PER_MINUTE", 300);
export const submissionLimiter = new RateLimiter(submitRate, () => Math.ceil(submitRate() / 2));

/** ASSESSOR_LOGIN_RATE_PER_MINUTE: sign-in attempts per email (default 20 a minute, bursts of 10). */
const loginRate = () => positiveNumber("ASSESSOR_LOGIN_RATE_PER_MINUTE", 20);
export const loginLimiter = new RateLimiter(loginRate, () => Math.ceil(loginRate() / 2));

/** Throws 429 with the wait in `details.retryAfterSeconds` (sent as Retry-After by lib/http/route.ts). */
export function enforceRate(limiter: RateLimiter, key: string, what: string): void {
  const r = limiter.take(key);
  if (!r.ok) throw new AppError("too_many_requests", `too many ${what}: try again in ${r.retryAfterSeconds} s`, { retryAfterSeconds: r.retryAfterSeconds });
}
