import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { ensureSqliteDir, readDbConfig, type DbConfig } from "./config.ts";

export const projectRoot = process.env.ASSESSOR_ROOT ?? process.cwd();

export function migrationsDir(provider: DbConfig["provider"]): string {
  return join(/*turbopackIgnore: true*/ projectRoot, "prisma", "migrations", provider);
}

export function schemaPath(provider: DbConfig["provider"]): string {
  return provider === "sqlite"
    ? join(/*turbopackIgnore: true*/ projectRoot, "prisma", "schema.prisma")
    : join(/*turbopackIgnore: true*/ projectRoot, "prisma", "postgres", "schema.prisma");
}

/** The driver adapter of the configured database, imported only when migrations are pending. */
async function adapterFactory(config: DbConfig): Promise<SqlMigrationAwareDriverAdapterFactory> {
  if (config.provider === "sqlite") {
    ensureSqliteDir(config.file);
    const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
    return new PrismaBetterSqlite3({ url: config.file, timeout: 15_000 });
  }
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const url = new URL(config.url);
  url.searchParams.delete("schema");
  return new PrismaPg(
    {
      connectionString: url.toString(),
      max: 2,
      ...(config.schema ? { options: `-c search_path="${config.schema}"` } : {}),
    },
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
 * True when every migration is recorded as finished: then the wasm schema engine (~100 MB and
 * ~0.5 s per CLI command) need not be loaded. Any doubt (no database yet, no table, an error)
 * answers false and the engine decides, as before.
 */
async function allApplied(config: DbConfig, names: string[]): Promise<boolean> {
  const sql = `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  try {
    let applied: string[];
    if (config.provider === "sqlite") {
      const { default: Database } = await import("better-sqlite3");
      const conn = new Database(config.file, { readonly: true, fileMustExist: true });
      try {
        applied = (conn.prepare(sql).all() as { migration_name: string }[]).map((r) => r.migration_name);
      } finally {
        conn.close();
      }
    } else {
      const { default: pg } = await import("pg");
      const url = new URL(config.url);
      url.searchParams.delete("schema");
      const client = new pg.Client({
        connectionString: url.toString(),
        ...(config.schema ? { options: `-c search_path="${config.schema}"` } : {}),
      });
      await client.connect();
      try {
        applied = (await client.query<{ migration_name: string }>(sql)).rows.map((r) => r.migration_name);
      } finally {
        await client.end();
      }
    }
    const done = new Set(applied);
    return names.every((n) => done.has(n));
  } catch {
    return false;
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
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  if (await allApplied(config, names)) return [];
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
  // The wasm schema engine is loaded only when there is something to apply.
  const { noFilters, openSchemaEngine } = await import("./engine.ts");
  const { engine, close } = await openSchemaEngine(
    { path: schemaFile, content: await readFile(schemaFile, "utf8") },
    await adapterFactory(config),
  );
  try {
    const out = await engine.applyMigrations({
      migrationsList: {
        baseDir: dir,
        lockfile: { path: "migration_lock.toml", content: lock },
        shadowDbInitScript: "",
        migrationDirectories,
      },
      filters: noFilters,
    });
    return out.appliedMigrationNames;
  } finally {
    await close();
  }
}
