import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { Prisma } from "../db/client.ts";
import { AppError, ValidationError, type LocatedError } from "../errors.ts";

/**
 * What every importer takes: the file as a path (CLI) or as a name and bytes (web upload), plus
 * an optional progress callback. Errors name the file as the user gave it.
 */
export type ImportInput = string | { name: string; bytes: Buffer };
export type ImportOptions = { onProgress?: (done: number, total: number) => void };

export type ImportKind = "videos" | "chunks" | "transcript" | "queries" | "run" | "labels" | "judge" | "answers";

/** What an import did. `rows` is the number of data rows in the file; the rest count writes. */
export type ImportResult = {
  kind: ImportKind;
  file: string;
  sha256: string;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Reference labels: pooled items that left the annotation queue (their assignments released; lib/imports/labels.ts). */
  released?: number;
  /** Chunk ids made by a transcript import, in order. */
  chunkIds?: string[];
  /** What was imported but deserves a look (a repaired cue, a cue longer than the chunk size), located. */
  warnings?: LocatedError[];
};

/** What an import of `rows` rows did that created `created` and updated `updated` (the rest unchanged). */
export function importTally(
  kind: ImportKind,
  file: string,
  sha256: string,
  rows: number,
  created: number,
  updated: number,
): ImportResult {
  return { kind, file, sha256, rows, created, updated, unchanged: rows - created - updated };
}

export const inputName = (input: ImportInput) => (typeof input === "string" ? input : input.name);

/** The whole file in memory with its sha256 (for every kind but runs, which stream). */
export async function readInput(input: ImportInput): Promise<{ name: string; bytes: Buffer; sha256: string }> {
  const name = inputName(input);
  let bytes: Buffer;
  if (typeof input === "string") {
    try {
      bytes = await readFile(input);
    } catch (e) {
      throw new AppError("bad_input", `cannot read ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  } else bytes = input.bytes;
  return { name, bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}

export async function sha256File(path: string): Promise<{ sha256: string; size: number }> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    throw new AppError("bad_input", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return { sha256: h.digest("hex"), size };
}

export const MAX_REPORTED_ERRORS = 50;

/**
 * Collects located errors, keeping the first 50 (and counting the rest) so that a file with a
 * million bad lines does not hold a million error objects.
 */
export class ErrorList {
  readonly first: LocatedError[] = [];
  count = 0;
  push = (...errors: LocatedError[]) => {
    for (const e of errors) {
      this.count++;
      if (this.first.length < MAX_REPORTED_ERRORS) this.first.push(e);
    }
  };
  /** Throws a ValidationError (nothing written) when any error was collected. */
  throwIfAny(): void {
    if (this.count === 0) return;
    const err = new ValidationError(this.first);
    if (this.count > this.first.length)
      err.message = `${this.count} errors (the first ${this.first.length} shown):\n${err.message.replace(/^\d+ errors:\n/, "")}`;
    throw err;
  }
}

// In lib/formats/text.ts, so that `assessor agreement` (no database module) tells files apart as the imports do.
export { fileKind, firstChar, isJsonlLabelFile } from "../formats/text.ts";

/** The audit row every import appends, inside its transaction. */
export type ImportRecordData = { projectId: number; kind: ImportKind; fileName: string; sha256: string; rows: number };

export type Tx = Prisma.TransactionClient;

export const TX_OPTIONS = { timeout: 10 * 60_000, maxWait: 60_000 } as const;
