import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { ensureSqliteDir, readDbConfig, type DbConfig } from "./config.ts";
import { noFilters, openSchemaEngine } from "./engine.ts";

export const projectRoot = process.env.ASSESSOR_ROOT ?? process.cwd();

export function migrationsDir(provider: DbConfig["provider"]): string {
  return join(/*turbopackIgnore: true*/ projectRoot, "prisma", "migrations", provider);
}

export function schemaPath(provider: DbConfig["provider"]): string {
  return provider === "sqlite"
    ? join(/*turbopackIgnore: true*/ projectRoot, "prisma", "schema.prisma")
    : join(/*turbopackIgnore: true*/ projectRoot, "prisma", "postgres", "schema.prisma");
}

function adapterFactory(config: DbConfig): SqlMigrationAwareDriverAdapterFactory {
  if (config.provider === "sqlite") {
    ensureSqliteDir(config.file);
    return new PrismaBetterSqlite3({ url: config.file, timeout: 15_000 });
  }
  const url = new URL(config.url);
  url.searchParams.delete("schema");
  return new PrismaPg(
    { connectionString: url.toString(), max: 2, ...(config.schema ? { options: `-c search_path="${config.schema}"` } : {}) },
    config.schema ? { schema: config.schema } : undefined,
  );
}

async function ensurePgSchema(config: Extract<DbConfig, { provider: "postgres" }>): Promise<void> {
  if (!config.schema) return;
  const { default: pg } = await import("pg");
  const url = new URL(config.url);
  url.searchParams.delete("schema");
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * Applies the pending migrations of prisma/migrations/<provider> to the configured database,
 * exactly as `prisma migrate deploy` would (recorded in _prisma_migrations); a second call
 * applies nothing. Returns the names of the migrations applied now.
 */
export async function migrate(config: DbConfig = readDbConfig()): Promise<string[]> {
  if (config.provider === "postgres") await ensurePgSchema(config);
  const dir = migrationsDir(config.provider);
  const names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok" as const, value: await readFile(join(dir, name, "migration.sql"), "utf8") },
      },
    })),
  );
  const lock = await readFile(join(dir, "migration_lock.toml"), "utf8");
  const schemaFile = schemaPath(config.provider);
  const { engine, close } = await openSchemaEngine({ path: schemaFile, content: await readFile(schemaFile, "utf8") }, adapterFactory(config));
  try {
    const out = await engine.applyMigrations({
      migrationsList: { baseDir: dir, lockfile: { path: "migration_lock.toml", content: lock }, shadowDbInitScript: "", migrationDirectories },
      filters: noFilters,
    });
    return out.appliedMigrationNames;
  } finally {
    await close();
  }
}
