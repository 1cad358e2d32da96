import { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import {
  formatRun,
  fuseOptionsProblem,
  fuseScores,
  fusedRows,
  METHODS,
  NORMS,
  rankedRun,
  RRF_K,
  type Method,
  type Norm,
  type RankedRun,
} from "../fusion/index.ts";
import { loadIdIndex } from "../db/id-index.ts";
import { importRun } from "../imports/run.ts";

/**
 * Fusion from the lead's page: the project's stored runs fused as `assessor fuse` fuses run
 * files (lib/fusion, the same options and checks), and the result imported as a new run through
 * the run importer, exactly as `assessor fuse … > f.trec; assessor import run --system S f.trec`
 * would: the same validation, ImportRecord, packed rankings and content hash.
 */
export const ZFuse = z.object({
  system: z.string().max(200),
  runs: z.array(z.string().max(200)).max(100),
  method: z.enum(METHODS),
  k: z.number().int().min(1).max(1_000_000).optional(),
  norm: z.enum(NORMS).optional(),
  weights: z.array(z.number().finite()).max(100).optional(),
  depth: z.number().int().min(1).max(100_000).optional(),
  description: z.string().max(1000).optional(),
});
export type TFuse = z.infer<typeof ZFuse>;

export type TFuseResult = {
  system: string;
  description: string;
  runs: string[];
  method: Method;
  queries: number;
  lines: number;
  sha256: string;
};

/** The method and its parameters in words, e.g. "rrf k=60 of bm25, vector". */
export function fusionRecipe(o: {
  runs: readonly string[];
  method: Method;
  k?: number;
  norm?: Norm;
  weights?: readonly number[];
  depth?: number;
}): string {
  const params = o.method === "rrf" ? [`k=${o.k ?? RRF_K}`] : [`norm=${o.norm ?? "min-max"}`];
  if (o.method === "wsum") params.push(`weights=${(o.weights ?? o.runs.map(() => 1)).join(",")}`);
  if (o.depth !== undefined) params.push(`depth=${o.depth}`);
  return `${o.method} ${params.join(" ")} of ${o.runs.join(", ")}`;
}

/** A stored run's entries as fusion reads a run file: per query, the documents in the evaluated order. */
async function storedRankedRun(
  db: Db,
  runId: number,
  qids: (id: number) => string,
  docids: (id: number) => string,
): Promise<RankedRun> {
  const entries = await db.runEntry.findMany({
    where: { runId },
    select: { queryId: true, chunkId: true, score: true },
  });
  return rankedRun(entries.map((e) => ({ qid: qids(e.queryId), docid: docids(e.chunkId), score: e.score })));
}

export async function fuseStoredRuns(db: Db, projectId: number, input: TFuse): Promise<TFuseResult> {
  const system = input.system.trim();
  if (!system) throw new AppError("bad_input", "the fused run needs a system name");
  const names = input.runs.map((r) => r.trim()).filter(Boolean);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length) throw new AppError("bad_input", `run "${twice[0]}" is chosen twice; choose each run once`);
  const problem = fuseOptionsProblem(names.length, input, (n) => n);
  if (problem) throw new AppError("bad_input", problem);

  const known = await db.run.findMany({
    where: { projectId },
    select: { id: true, system: true, chunking: { select: { id: true, name: true } } },
    orderBy: { system: "asc" },
  });
  const unknown = names.filter((n) => !known.some((r) => r.system === n));
  if (unknown.length)
    throw new AppError(
      "not_found",
      `unknown run${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}; runs in this project: ${known.map((r) => r.system).join(", ") || "none"}`,
    );
  if (known.some((r) => r.system === system))
    throw new AppError(
      "conflict",
      `a run named "${system}" already exists in this project; choose another name for the fused run`,
    );

  // Fused runs share one chunking: their docids name the same chunks.
  const chosen = names.map((n) => known.find((r) => r.system === n)).filter((r) => r !== undefined);
  const chunkings = [...new Set(chosen.map((r) => r.chunking.name))];
  if (chunkings.length > 1)
    throw new AppError(
      "bad_input",
      `the runs to fuse belong to different chunkings (${chosen.map((r) => `${r.system}: ${r.chunking.name}`).join(", ")}); fuse runs of one chunking`,
    );
  const queries = await loadIdIndex(db, "Query", projectId);
  const chunks = await loadIdIndex(db, "Chunk", projectId, chosen[0]?.chunking.id);
  const runs: RankedRun[] = [];
  for (const name of names) {
    const run = known.find((r) => r.system === name);
    if (run)
      runs.push(
        await storedRankedRun(
          db,
          run.id,
          (id) => queries.externalIdOf(id) ?? "",
          (id) => chunks.externalIdOf(id) ?? "",
        ),
      );
  }
  const rows = fusedRows(
    fuseScores(runs, { method: input.method, k: input.k, norm: input.norm ?? "min-max", weights: input.weights }),
    input.depth,
  );
  // The tag column is the system name (a run file's fields are separated by whitespace).
  const tag = system.replace(/\s+/g, "_");
  const recipe = fusionRecipe({ ...input, runs: names });
  const description = input.description?.trim() ? `${input.description.trim()} (${recipe})` : recipe;
  const imported = await importRun(
    db,
    projectId,
    { name: `${tag}.fused.trec`, bytes: Buffer.from(formatRun(rows, tag)) },
    { system, description, chunking: chunkings[0] },
  );
  return {
    system,
    description,
    runs: names,
    method: input.method,
    queries: new Set(rows.map((r) => r.qid)).size,
    lines: imported.rows,
    sha256: imported.sha256,
  };
}
