import { Command, Option } from "commander";
import type { Db, Project } from "../lib/db/client.ts";
import { AppError } from "../lib/errors.ts";

/** Options every project-scoped command takes. */
export const projectOption = () => new Option("--project <name>", "project to act on (default: the only project)");

/**
 * Opens the database (applying pending migrations first, so that a fresh checkout works without
 * a separate `migrate`), runs `fn`, and always closes the connection. The database modules are
 * imported here, lazily, so that file-only commands (eval, agreement) start fast.
 */
export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const [{ migrate }, { getDb, closeDb }] = await Promise.all([
    import("../lib/db/migrate.ts"),
    import("../lib/db/client.ts"),
  ]);
  await migrate();
  const db = await getDb();
  try {
    return await fn(db);
  } finally {
    await closeDb();
  }
}

export async function withProject<T>(
  projectName: string | undefined,
  fn: (db: Db, project: Project) => Promise<T>,
): Promise<T> {
  const { resolveProject } = await import("../lib/projects/resolve.ts");
  return withDb(async (db) => fn(db, await resolveProject(db, projectName)));
}

/** Writes a line to stdout (results) — stderr is for progress and errors. */
export function out(line: string): void {
  process.stdout.write(`${line}\n`);
}

export function fail(message: string): never {
  throw new AppError("bad_input", message);
}

/** A decimal option's value (undefined when not given); anything else than a finite number fails naming the flag. */
export function decimalOption(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(v.trim() !== "" && Number.isFinite(n))) fail(`${flag}: expected a number such as 0.5, got "${v}"`);
  return n;
}

export type Register = (program: Command) => void;
