/**
 * The types of the measure registry (index.ts): a printed column, its summary over queries, the
 * evaluation context and the per-query scratch shared by columns.
 */
import type { ChunkTime, ReferenceStart, StartErrorResult } from "./start-error.ts";
import type { EvalOptions, RankedQuery, RelInfo } from "./types.ts";

export type EvalContext = EvalOptions & {
  /** Reference starts by qid (start_error). */
  starts?: ReadonlyMap<string, ReferenceStart>;
  /** Chunk times by docid (start_error). */
  chunks?: ReadonlyMap<string, ChunkTime>;
};

/** How a column is summarised over queries. "none": printed per query only (relstring). */
export type Summary = "mean" | "sum" | "geometric" | "none";

/** One printed column: a measure at one parameter. `compute` returns null where the measure does not apply to the query. */
export type MeasureColumn = {
  name: string;
  family: string;
  summary: Summary;
  integer: boolean;
  /** Printed per query with -q (gm_map, gm_bpref, num_q and runid are not). */
  perQuery: boolean;
  /**
   * The value of a query of the qrels missing from the run under -c: "trec" as trec_eval 10.0
   * (computed on its stand-in ranking, lib/stats/evaluate.ts, then `missingQueryValue`),
   * "compute" on an empty ranking (ours), "none" (num_q, runid).
   */
  fill: "trec" | "compute" | "none";
  /** trec_eval's runid (the run's tag) and num_q, which the caller prints. */
  special?: "runid" | "num_q";
  compute: (q: RankedQuery, ctx: EvalContext, cache: QueryCache) => number | null;
  /** A text value instead of a number (relstring). */
  text?: (q: RankedQuery, ctx: EvalContext, cache: QueryCache) => string;
};

/** Per-query scratch shared by columns: the RelInfo, a family's values at all its parameters, the start-error result. */
export type QueryCache = { rel?: RelInfo; arrays?: Map<string, number[]>; startError?: StartErrorResult | null };
