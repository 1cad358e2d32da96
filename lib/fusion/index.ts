/**
 * Run fusion: combines several runs of the same queries into one run, as ranx does
 * (ranx/fusion/*.py): `rrf` (rank-based), `wsum`, `combsum`, `combmnz` (score-based, each query's
 * scores normalised first, min-max by default). Pure: rows in, rows out; bin/commands/fuse.ts
 * reads and writes the files. Queries: every query any input run answers (ranx takes the first
 * run's). The fused ranking is in the evaluated order (score descending, ties by docid
 * descending), ranks 1…n; `depth` keeps the top n of each query.
 */
import { compareEvaluated } from "../stats/order.ts";
import { combMnz } from "./comb-mnz.ts";
import { combSum } from "./comb-sum.ts";
import { normalizeScores, rankedRun, type Norm } from "./normalize.ts";
import { rrf, RRF_K } from "./rrf.ts";
import type { RankedRun, ScoredRun } from "./types.ts";
import { wsum } from "./wsum.ts";

export { NORMS, type Norm } from "./normalize.ts";
export { RRF_K } from "./rrf.ts";
export { rankedRun };
export type { RankedRun, ScoredRun };

export const METHODS = ["rrf", "wsum", "combsum", "combmnz"] as const;
export type Method = (typeof METHODS)[number];

export type FuseOptions = { method: Method; k?: number; norm?: Norm; weights?: readonly number[] };

export type FusedRow = { qid: string; docid: string; rank: number; score: number };

/** Each run's queries with normalised scores. */
export function normalizedRuns(runs: readonly RankedRun[], norm: Norm): ScoredRun[] {
  return runs.map((run) => {
    const out: ScoredRun = new Map();
    for (const [qid, q] of run) {
      const s = normalizeScores(q.scores, norm);
      out.set(qid, new Map(q.docids.map((d, i) => [d, s[i]])));
    }
    return out;
  });
}

/** The fused scores of every query and document. */
export function fuseScores(runs: readonly RankedRun[], opts: FuseOptions): ScoredRun {
  if (opts.method === "rrf") return rrf(runs, opts.k ?? RRF_K);
  const normalized = normalizedRuns(runs, opts.norm ?? "min-max");
  if (opts.method === "combsum") return combSum(normalized);
  if (opts.method === "combmnz") return combMnz(normalized);
  const weights = opts.weights ?? runs.map(() => 1);
  if (weights.length !== runs.length)
    throw new Error(`wsum needs one weight per run: ${runs.length} runs, ${weights.length} weights`);
  return wsum(normalized, weights);
}

/** Fused scores as run lines in the evaluated order, queries in byte order. */
export function fusedRows(scores: ScoredRun, depth = Infinity): FusedRow[] {
  const rows: FusedRow[] = [];
  const qids = [...scores.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const qid of qids) {
    const docs = [...(scores.get(qid) ?? new Map<string, number>())].map(([docid, score]) => ({ docid, score }));
    docs.sort(compareEvaluated);
    const n = Math.min(depth, docs.length);
    for (let i = 0; i < n; i++) rows.push({ qid, docid: docs[i].docid, rank: i + 1, score: docs[i].score });
  }
  return rows;
}

/** TREC run lines: `qid Q0 docid rank score tag`, the score with up to 17 significant digits. */
export function formatRun(rows: readonly FusedRow[], tag: string): string {
  return rows.map((r) => `${r.qid} Q0 ${r.docid} ${r.rank} ${r.score} ${tag}`).join("\n") + (rows.length ? "\n" : "");
}

/**
 * What is wrong with these fusion options for `runs` input runs, or undefined: the one check
 * behind `assessor fuse`'s usage errors and the lead's page. `option` names an option as the
 * caller shows it (`--norm` on the command line, `norm` on the page).
 */
export function fuseOptionsProblem(
  runs: number,
  o: { method: Method; norm?: Norm; weights?: readonly number[] },
  option: (name: string) => string = (n) => `--${n}`,
): string | undefined {
  if (runs < 2) return "fuse needs at least two runs";
  if (o.method === "rrf" && o.norm) return `${option("norm")} does not apply to rrf (it uses ranks, not scores)`;
  if (o.weights && o.method !== "wsum") return `${option("weights")} applies to ${option("method")} wsum only`;
  if (o.weights && o.weights.length !== runs)
    return `${option("weights")}: ${runs} runs need ${runs} weights, got ${o.weights.length}`;
  return undefined;
}
