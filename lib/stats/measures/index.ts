/**
 * The measure registry: names and parameters as trec_eval spells them on the command line
 * (`-m ndcg_cut.5,10`, `-m P.5`, `-m recip_rank`), the names printed per cutoff (`ndcg_cut_5`,
 * `P_5`), trec_eval's output order (its measure table: num_ret, num_rel, num_rel_ret, map,
 * recip_rank, P, recall, ndcg, ndcg_cut), then ours (ndcg_exp, ndcg_exp_cut, judged, unjudged,
 * start_error family), and how each is summarised (mean over queries, or sum for the counts).
 */
import { averagePrecision } from "./average-precision.ts";
import { judgedAt, unjudgedAt } from "./judged.ts";
import { ndcg } from "./ndcg.ts";
import { numRel } from "./num-rel.ts";
import { numRelRet } from "./num-rel-ret.ts";
import { numRet } from "./num-ret.ts";
import { precisionAt } from "./precision.ts";
import { recallAt } from "./recall.ts";
import { reciprocalRank } from "./recip-rank.ts";
import { START_WITHIN_SECONDS, startError, type ChunkTime, type ReferenceStart, type StartErrorResult } from "./start-error.ts";
import type { EvalOptions, RankedQuery } from "./types.ts";

export type EvalContext = EvalOptions & {
  /** Reference starts by qid (start_error). */
  starts?: ReadonlyMap<string, ReferenceStart>;
  /** Chunk times by docid (start_error). */
  chunks?: ReadonlyMap<string, ChunkTime>;
};

/** One printed column: a measure at one parameter. `null` = not applicable to this query. */
export type MeasureColumn = {
  name: string;
  family: string;
  /** "sum" for trec_eval's counts (num_ret, num_rel, num_rel_ret), "mean" for everything else. */
  summary: "mean" | "sum";
  integer: boolean;
  compute: (q: RankedQuery, ctx: EvalContext, cache: QueryCache) => number | null;
};

/** Per-query scratch shared by columns (the start-error family computes once for five columns). */
export type QueryCache = { startError?: StartErrorResult | null };

const DEFAULT_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

type Family = {
  name: string;
  cutoffs: boolean;
  defaultCutoffs?: number[];
  columns: (cutoffs: number[]) => MeasureColumn[];
};

const mean = (name: string, family: string, compute: MeasureColumn["compute"]): MeasureColumn => ({ name, family, summary: "mean", integer: false, compute });
const count = (name: string, compute: MeasureColumn["compute"]): MeasureColumn => ({ name, family: name, summary: "sum", integer: true, compute });

function cached(q: RankedQuery, ctx: EvalContext, cache: QueryCache): StartErrorResult | null {
  if (cache.startError === undefined) cache.startError = ctx.starts && ctx.chunks ? startError(q, ctx.starts.get(q.qid), ctx.chunks, ctx) : null;
  return cache.startError;
}

/** In output order. */
const FAMILIES: Family[] = [
  { name: "num_ret", cutoffs: false, columns: () => [count("num_ret", (q) => numRet(q))] },
  { name: "num_rel", cutoffs: false, columns: () => [count("num_rel", (q, c) => numRel(q, c))] },
  { name: "num_rel_ret", cutoffs: false, columns: () => [count("num_rel_ret", (q, c) => numRelRet(q, c))] },
  { name: "map", cutoffs: false, columns: () => [mean("map", "map", (q, c) => averagePrecision(q, c))] },
  { name: "recip_rank", cutoffs: false, columns: () => [mean("recip_rank", "recip_rank", (q, c) => reciprocalRank(q, c))] },
  { name: "P", cutoffs: true, defaultCutoffs: DEFAULT_CUTOFFS, columns: (ks) => ks.map((k) => mean(`P_${k}`, "P", (q, c) => precisionAt(q, k, c))) },
  { name: "recall", cutoffs: true, defaultCutoffs: DEFAULT_CUTOFFS, columns: (ks) => ks.map((k) => mean(`recall_${k}`, "recall", (q, c) => recallAt(q, k, c))) },
  { name: "ndcg", cutoffs: false, columns: () => [mean("ndcg", "ndcg", (q) => ndcg(q, { gain: "linear" }))] },
  { name: "ndcg_cut", cutoffs: true, defaultCutoffs: DEFAULT_CUTOFFS, columns: (ks) => ks.map((k) => mean(`ndcg_cut_${k}`, "ndcg_cut", (q) => ndcg(q, { cutoff: k, gain: "linear" }))) },
  { name: "ndcg_exp", cutoffs: false, columns: () => [mean("ndcg_exp", "ndcg_exp", (q) => ndcg(q, { gain: "exponential" }))] },
  { name: "ndcg_exp_cut", cutoffs: true, defaultCutoffs: DEFAULT_CUTOFFS, columns: (ks) => ks.map((k) => mean(`ndcg_exp_cut_${k}`, "ndcg_exp_cut", (q) => ndcg(q, { cutoff: k, gain: "exponential" }))) },
  { name: "judged", cutoffs: true, defaultCutoffs: [10], columns: (ks) => ks.map((k) => mean(`judged_${k}`, "judged", (q) => judgedAt(q, k))) },
  { name: "unjudged", cutoffs: true, defaultCutoffs: [10], columns: (ks) => ks.map((k) => mean(`unjudged_${k}`, "unjudged", (q) => unjudgedAt(q, k))) },
  {
    name: "start_error",
    cutoffs: false,
    columns: () => [
      mean("start_error", "start_error", (q, c, cache) => cached(q, c, cache)?.error ?? null),
      ...START_WITHIN_SECONDS.map((s) => mean(`start_within_${s}`, "start_error", (q, c, cache) => {
        const r = cached(q, c, cache);
        return r ? (r.error <= s ? 1 : 0) : null;
      })),
      mean("start_rr", "start_error", (q, c, cache) => cached(q, c, cache)?.timeAwareRR ?? null),
    ],
  },
];

export const MEASURE_NAMES = FAMILIES.map((f) => f.name);

/** Measures when no -m is given. */
export const DEFAULT_MEASURES = ["num_q", "num_ret", "num_rel", "num_rel_ret", "map", "recip_rank", "P.5,10", "recall.5,10,100", "ndcg", "ndcg_cut.5,10", "ndcg_exp_cut.5,10", "judged.10"];

export class MeasureSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MeasureSpecError";
  }
}

/**
 * Turns `-m` values into columns in output order. Each value is `name` (default cutoffs, as
 * trec_eval) or `name.k1,k2,…`; cutoffs are sorted and de-duplicated, and `-m P.5 -m P.10` merges
 * into P_5 and P_10. `num_q` is accepted and printed by the caller. Unknown names and bad cutoffs
 * throw MeasureSpecError (a usage error).
 */
export function parseMeasures(specs: readonly string[]): { columns: MeasureColumn[]; numQ: boolean; startError: boolean } {
  const wanted = new Map<string, Set<number>>();
  let numQ = false;
  for (const spec of specs) {
    const dot = spec.indexOf(".");
    const name = dot < 0 ? spec : spec.slice(0, dot);
    const params = dot < 0 ? null : spec.slice(dot + 1);
    if (name === "num_q") {
      numQ = true;
      continue;
    }
    const family = FAMILIES.find((f) => f.name === name);
    if (!family) throw new MeasureSpecError(`unknown measure "${name}" (known: num_q, ${MEASURE_NAMES.join(", ")})`);
    const set = wanted.get(name) ?? new Set<number>();
    wanted.set(name, set);
    if (params === null) {
      for (const k of family.defaultCutoffs ?? []) set.add(k);
      continue;
    }
    if (!family.cutoffs) throw new MeasureSpecError(`measure "${name}" takes no parameters (got "${spec}")`);
    for (const p of params.split(",")) {
      if (!/^\d+$/.test(p) || Number(p) < 1) throw new MeasureSpecError(`measure "${name}": cutoffs must be positive integers, got "${p}" in "${spec}"`);
      set.add(Number(p));
    }
  }
  const columns: MeasureColumn[] = [];
  for (const f of FAMILIES) {
    const ks = wanted.get(f.name);
    if (ks) columns.push(...f.columns([...ks].sort((a, b) => a - b)));
  }
  return { columns, numQ, startError: wanted.has("start_error") };
}
