import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { field, say } from "../terms.ts";

/**
 * Chunkings: one way of cutting a project's transcripts into chunks. Every chunk
 * and every run belongs to exactly one; imports without a name use `default`.
 *
 * Parameters: a chunking cut from transcripts records its method ("seconds" | "words"), size and
 * overlap in that unit; chunk files are "imported" (no parameters). Rules when an import names an
 * existing chunking:
 * - an empty chunking (no chunks yet) takes the import's method and parameters;
 * - a chunking with chunks and parameters refuses other parameters or another method (a second
 *   cut belongs in a chunking of its own);
 * - an "imported" chunking with chunks accepts both chunk files and transcripts (its parameters
 *   are unknown: projects that existed before chunkings migrated into `default` that way);
 * - a chunk file is accepted into any existing chunking and leaves its parameters as they are (a
 *   chunking exported with `assessor chunking export` imports back unchanged).
 */
export const DEFAULT_CHUNKING_NAME = "default";
export type ChunkingMethod = "imported" | "seconds" | "words";
export type ChunkingSpec = { method: ChunkingMethod; size?: number | null; overlap?: number | null };
export type ChunkingInfo = { id: number; name: string; method: string; size: number | null; overlap: number | null };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkChunkingName(name: string): string {
  if (!NAME.test(name))
    throw new AppError(
      "bad_input",
      `chunking name "${name}": expected 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  return name;
}

function describe(c: { method: string; size: number | null; overlap: number | null }): string {
  return c.method === "imported" ? "imported chunks" : `${c.method}, size ${c.size}, overlap ${c.overlap}`;
}

/** The named chunking, created with `spec` when new; refuses parameters that contradict it (rules above). */
export async function ensureChunking(
  db: Db,
  projectId: number,
  name: string,
  spec: ChunkingSpec,
): Promise<ChunkingInfo> {
  checkChunkingName(name);
  const want = {
    method: spec.method,
    size: spec.method === "imported" ? null : (spec.size ?? null),
    overlap: spec.method === "imported" ? null : (spec.overlap ?? null),
  };
  const select = { id: true, name: true, method: true, size: true, overlap: true } as const;
  const found = await db.chunking.findUnique({ where: { projectId_name: { projectId, name } }, select });
  if (!found) {
    try {
      return await db.chunking.create({ data: { projectId, name, ...want }, select });
    } catch (e) {
      // Created by a concurrent import between the look-up and the insert: use that one.
      if ((e as { code?: string }).code !== "P2002") throw e;
      return ensureChunking(db, projectId, name, spec);
    }
  }
  if (
    want.method === "imported" ||
    (found.method === want.method && found.size === want.size && found.overlap === want.overlap)
  )
    return found;
  const chunks = await db.chunk.count({ where: { chunkingId: found.id }, take: 1 });
  if (chunks === 0) return db.chunking.update({ where: { id: found.id }, data: want, select });
  if (found.method === "imported") return found;
  throw new AppError(
    "conflict",
    say`chunking "${name}" holds chunks cut as ${describe(found)}; this import is ${describe(want)}: import it under another ${field("chunking")} name (or delete "${name}" first)`,
  );
}

/** The named chunking of a project, or a not_found error listing the project's chunkings. */
export async function findChunking(db: Db, projectId: number, name: string): Promise<ChunkingInfo> {
  const found = await db.chunking.findUnique({
    where: { projectId_name: { projectId, name } },
    select: { id: true, name: true, method: true, size: true, overlap: true },
  });
  if (found) return found;
  const names = (
    await db.chunking.findMany({ where: { projectId }, select: { name: true }, orderBy: { name: "asc" } })
  ).map((c) => c.name);
  throw new AppError(
    "not_found",
    `no chunking "${name}" in this project${names.length ? `; its chunkings: ${names.join(", ")}` : " (it has none yet: import chunks or transcripts first)"}`,
  );
}

export type ChunkingSummary = ChunkingInfo & {
  chunks: number;
  runs: { system: string; description: string | null }[];
  createdAt: string;
};

/** Every chunking of the project by name, with its chunk count and its runs. */
export async function listChunkings(db: Db, projectId: number): Promise<ChunkingSummary[]> {
  const rows = await db.chunking.findMany({
    where: { projectId },
    orderBy: { name: "asc" },
    select: {
      id: true,
      name: true,
      method: true,
      size: true,
      overlap: true,
      createdAt: true,
      _count: { select: { chunks: true } },
      runs: { select: { system: true, description: true }, orderBy: { system: "asc" } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    method: r.method,
    size: r.size,
    overlap: r.overlap,
    chunks: r._count.chunks,
    runs: r.runs,
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * Resolves chunk ids for label files (qrels, labels JSONL, judge labels), which are per (query,
 * chunk) and may span chunkings: with `chunking` named, within it; otherwise a docid must be held
 * by exactly one chunking of the project (an id two chunkings share is an error asking for
 * --chunking). Returns the internal id, or the reason it cannot be resolved.
 */
export async function chunkResolver(
  db: Db,
  projectId: number,
  chunking?: string,
): Promise<(docid: string) => number | string> {
  const { loadIdIndex } = await import("../db/id-index.ts");
  if (chunking !== undefined) {
    const c = await findChunking(db, projectId, chunking);
    const index = await loadIdIndex(db, "Chunk", projectId, c.id);
    return (docid) =>
      index.get(docid) ?? `unknown chunk "${docid}"; expected the id of a chunk of chunking "${c.name}"`;
  }
  const all = await db.chunking.findMany({
    where: { projectId },
    orderBy: { name: "asc" },
    select: { id: true, name: true },
  });
  const indexes = await Promise.all(all.map((c) => loadIdIndex(db, "Chunk", projectId, c.id)));
  return (docid) => {
    let found: number | undefined;
    const holding: string[] = [];
    for (let k = 0; k < all.length; k++) {
      const id = indexes[k].get(docid);
      if (id !== undefined) {
        found = id;
        holding.push(`"${all[k].name}"`);
      }
    }
    if (holding.length > 1)
      return `chunk "${docid}" exists in several chunkings (${holding.join(", ")}); choose one with --chunking NAME`;
    return found ?? `unknown chunk "${docid}"; expected the id of a chunk imported into this project`;
  };
}

/** The id of the project's `default` chunking (created, as "imported", when missing). */
export async function defaultChunkingId(db: Db, projectId: number): Promise<number> {
  return (await ensureChunking(db, projectId, DEFAULT_CHUNKING_NAME, { method: "imported" })).id;
}
