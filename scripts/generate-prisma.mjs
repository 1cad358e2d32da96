#!/usr/bin/env node
// Derives prisma/postgres/schema.prisma from prisma/schema.prisma (only the provider and the
// generated client's output differ) and generates both clients. `prisma generate` does not use
// the native schema engine, which cannot be downloaded here; naming any existing file in
// PRISMA_SCHEMA_ENGINE_BINARY stops it from trying (see ../shared/STACK.md).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sqliteSchema = join(root, "prisma", "schema.prisma");
const pgSchema = join(root, "prisma", "postgres", "schema.prisma");

export function derivePostgresSchema(text) {
  const out = text
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output       = "../lib/db/generated/sqlite"', 'output       = "../../lib/db/generated/postgres"')
    .replace(
      /^\/\/ Assessor data model\..*$/m,
      "// GENERATED from prisma/schema.prisma by scripts/generate-prisma.mjs: edit that file, not this one.",
    );
  if (out === text || !out.includes('"postgresql"') || !out.includes("generated/postgres")) {
    throw new Error("generate-prisma: could not derive the PostgreSQL schema (provider/output lines changed?)");
  }
  return out;
}

function main() {
  const text = readFileSync(sqliteSchema, "utf8");
  mkdirSync(dirname(pgSchema), { recursive: true });
  const derived = derivePostgresSchema(text);
  if (!existsSync(pgSchema) || readFileSync(pgSchema, "utf8") !== derived) writeFileSync(pgSchema, derived);
  const prismaBin = join(root, "node_modules", "prisma", "build", "index.js");
  const env = {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/false",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  };
  for (const schema of [sqliteSchema, pgSchema]) {
    execFileSync(process.execPath, [prismaBin, "generate", "--schema", schema, "--no-hints"], {
      cwd: root,
      env,
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  console.log("prisma: generated lib/db/generated/{sqlite,postgres}");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
