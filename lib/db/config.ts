import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";

/**
 * Which database to use, read once from DATABASE_URL:
 * - unset or `file:PATH`: SQLite (default `data/assessor.db` under the working directory);
 * - `postgres://` or `postgresql://`: PostgreSQL.
 * Anything else is a configuration error with a message that says what is accepted.
 */
export type DbConfig =
  { provider: "sqlite"; file: string; url: string } | { provider: "postgres"; url: string; schema: string | undefined };

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function readDbConfig(env: NodeJS.ProcessEnv = process.env): DbConfig {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) {
    const file = resolve(/*turbopackIgnore: true*/ process.cwd(), "data", "assessor.db");
    return { provider: "sqlite", file, url: `file:${file}` };
  }
  if (raw.startsWith("postgres://") || raw.startsWith("postgresql://")) {
    let schema: string | undefined;
    try {
      schema = new URL(raw).searchParams.get("schema") ?? undefined;
    } catch {
      throw new ConfigError(`DATABASE_URL is not a valid URL: ${raw}`);
    }
    return { provider: "postgres", url: raw, schema };
  }
  if (raw.startsWith("file:")) {
    const path = raw.slice("file:".length);
    const file = isAbsolute(path) ? path : resolve(/*turbopackIgnore: true*/ process.cwd(), path);
    return { provider: "sqlite", file, url: `file:${file}` };
  }
  throw new ConfigError(
    `DATABASE_URL must be empty (SQLite at data/assessor.db), file:PATH (SQLite) or postgres://… / postgresql://… (PostgreSQL); got "${raw}"`,
  );
}

export function ensureSqliteDir(file: string): void {
  mkdirSync(dirname(file), { recursive: true });
}
