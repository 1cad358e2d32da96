import { getDb, type Db } from "../db/client.ts";
import { readDbConfig } from "../db/config.ts";
import { elapsedMsSince, floatParam, least, timestampParam } from "../db/dialect.ts";
import { sqlStatement } from "../db/sql.ts";
import { AppError } from "../errors.ts";

/**
 * Request limits: the size of an upload and of a JSON body, and per-key rates
 * (submissions per user; sign-in attempts are throttled by lib/auth/throttle.ts). Each is configurable by an environment
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
  const tooLarge = (size?: number) =>
    new AppError(
      "too_large",
      `the request body${size ? ` (${formatSize(size)})` : ""} is larger than the limit of ${formatSize(limit)} (${setting})`,
      { limitBytes: limit },
    );
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
 * A token bucket per key, in the RateLimit table so that every app server draws from the same
 * bucket: `perMinute` requests a minute on average, up to `burst` at once. Taking a token is one
 * statement (a conditional upsert: refill by the time since `updatedAt`, take one when at least
 * one is there, RETURNING the rest; no row back means none was left), so concurrent requests on
 * any number of servers never take more than the bucket holds. Only a refusal reads the row
 * again, to say when the next token comes.
 */
export class RateLimiter {
  constructor(
    /** Prefix of this limiter's keys in the table. */
    private readonly name: string,
    private readonly perMinute: () => number,
    private readonly burst: () => number,
  ) {}

  /** Takes one token for `key`; when none is left, the seconds until one is (for Retry-After). */
  async take(
    db: Db,
    key: string,
    now: Date = new Date(),
  ): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }> {
    const perMs = this.perMinute() / 60_000;
    const cap = Math.max(1, this.burst());
    const id = `${this.name}:${key}`;
    const { provider } = readDbConfig();
    const elapsedMs = elapsedMsSince(provider, '"RateLimit"."updatedAt"');
    const num = floatParam(provider);
    const refill = `${least(provider)}(${num}, "RateLimit"."tokens" + ${elapsedMs} * ${num})`;
    const ts = timestampParam(provider);
    const sql = `INSERT INTO "RateLimit" ("key", "tokens", "updatedAt") VALUES (?, ${num}, ${ts})
       ON CONFLICT ("key") DO UPDATE SET "tokens" = ${refill} - 1, "updatedAt" = ${ts}
       WHERE ${refill} >= 1
       RETURNING "tokens"`;
    const params = [id, cap - 1, now, cap, now, perMs, now, cap, now, perMs];
    const taken = await sqlStatement(db, sql, params);
    if (taken.length > 0) return { ok: true };
    const row = await db.rateLimit.findUnique({ where: { key: id } });
    const tokens = row ? Math.min(cap, row.tokens + Math.max(0, now.getTime() - row.updatedAt.getTime()) * perMs) : 0;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)) };
  }
}

/** ASSESSOR_SUBMIT_RATE_PER_MINUTE: grades and decisions per user (default 300 a minute, bursts of half that). */
const submitRate = () => positiveNumber("ASSESSOR_SUBMIT_RATE_PER_MINUTE", 300);
export const submissionLimiter = new RateLimiter("submit", submitRate, () => Math.ceil(submitRate() / 2));

/** Throws 429 with the wait in `details.retryAfterSeconds` (sent as Retry-After by lib/http/route.ts). */
export async function enforceRate(limiter: RateLimiter, key: string, what: string): Promise<void> {
  const r = await limiter.take(await getDb(), key);
  if (!r.ok)
    throw new AppError("too_many_requests", `too many ${what}: try again in ${r.retryAfterSeconds} s`, {
      retryAfterSeconds: r.retryAfterSeconds,
    });
}
