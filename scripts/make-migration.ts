// Writes a new migration for both databases by diffing the schema as of the last migration
// (prisma/migrations/schema.snapshot.prisma) against prisma/schema.prisma. Needs no database:
// the wasm schema engine diffs schema text against schema text (see ../shared/STACK.md); it only
// opens a connection to PostgreSQL (MIGRATION_PG_URL, default the local server) to know the dialect.
// Usage: npx tsx scripts/make-migration.ts NAME
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { noFilters, openSchemaEngine } from "../lib/db/engine.ts";
import { derivePostgresSchema } from "./generate-prisma.mjs";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: tsx scripts/make-migration.ts NAME   (NAME: lower-case letters, digits, _)");
  process.exit(2);
}
const root = process.cwd();
const snapshotPath = join(root, "prisma", "migrations", "schema.snapshot.prisma");
const current = readFileSync(join(root, "prisma", "schema.prisma"), "utf8");
const previous = existsSync(snapshotPath) ? readFileSync(snapshotPath, "utf8") : undefined;
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);

for (const provider of ["sqlite", "postgres"] as const) {
  const toText: string = provider === "sqlite" ? current : derivePostgresSchema(current);
  const fromText: string | undefined =
    previous === undefined ? undefined : provider === "sqlite" ? previous : derivePostgresSchema(previous);
  const adapter =
    provider === "sqlite"
      ? new PrismaBetterSqlite3({ url: ":memory:" })
      : new PrismaPg({
          connectionString: process.env.MIGRATION_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
        });
  const { engine, close } = await openSchemaEngine({ path: "schema.prisma", content: toText }, adapter);
  const result = await engine.diff({
    from:
      fromText === undefined
        ? { tag: "empty" }
        : { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: fromText }] },
    to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: toText }] },
    script: true,
    exitCode: null,
    filters: noFilters,
  });
  await close();
  const sql = result.stdout ?? "";
  if (!sql.trim() || sql.includes("This is an empty migration")) {
    console.log(`${provider}: no changes`);
    continue;
  }
  const dir = join(root, "prisma", "migrations", provider);
  mkdirSync(join(dir, `${stamp}_${name}`), { recursive: true });
  writeFileSync(
    join(dir, "migration_lock.toml"),
    `# Written by scripts/make-migration.ts\nprovider = "${provider === "sqlite" ? "sqlite" : "postgresql"}"\n`,
  );
  writeFileSync(join(dir, `${stamp}_${name}`, "migration.sql"), sql);
  console.log(`${provider}: wrote prisma/migrations/${provider}/${stamp}_${name}/migration.sql`);
}
writeFileSync(snapshotPath, current);
process.exit(0);
