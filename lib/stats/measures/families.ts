/**
 * The measure families in trec_eval's output order (measures.c's table), then ours: each family's
 * name, parameter kind, defaults and the columns it prints at given parameters (index.ts parses
 * `-m` specs against this table).
 */
import { averagePrecisionOf } from "./average-precision.ts";
import { binG } from "./bin-g.ts";
import { bpref } from "./bpref.ts";
import { ELEVEN_PT_DEFAULTS, elevenPtAvg } from "./eleven-pt-avg.ts";
import { gMeasure } from "./g.ts";
import { setupGains, type GainPair, type Gains } from "./gains.ts";
import { gmBpref } from "./gm-bpref.ts";
import { gmMap } from "./gm-map.ts";
import { infAP } from "./inf-ap.ts";
import { IPREC_DEFAULTS, iprecAtRecall } from "./iprec-at-recall.ts";
import { judgedAt, unjudgedAt } from "./judged.ts";
import { mapCut } from "./map-cut.ts";
import { ndcg, ndcgCut, ndcgGains } from "./ndcg.ts";
import { ndcgRel } from "./ndcg-rel.ts";
import { numNonrelJudgedRet } from "./num-nonrel-judged-ret.ts";
import { MeasureSpecError, printfFixed, type ParamKind } from "./params.ts";
import { precisionAtOf } from "./precision.ts";
import { rbp, persistence } from "./rbp.ts";
import { rbpResid } from "./rbp-resid.ts";
import { recallAtOf } from "./recall.ts";
import { reciprocalRank } from "./recip-rank.ts";
import { relativeP } from "./relative-p.ts";
import { RELSTRING_DEFAULT, relstring } from "./relstring.ts";
import { rNdcg } from "./rndcg.ts";
import { rPrec } from "./r-prec.ts";
import { RPREC_MULT_DEFAULTS, rPrecMult } from "./rprec-mult.ts";
import { setF, SET_F_DEFAULT } from "./set-f.ts";
import { setMap } from "./set-map.ts";
import { setP } from "./set-p.ts";
import { setRecall } from "./set-recall.ts";
import { setRelativeP } from "./set-relative-p.ts";
import { START_WITHIN_SECONDS, startError, type StartErrorResult } from "./start-error.ts";
import { SUCCESS_DEFAULTS, success } from "./success.ts";
import { relInfo, type RankedQuery, type RelInfo } from "./types.ts";
import { UNJ_DEFAULTS, unj } from "./unj.ts";
import { UTILITY_DEFAULTS, utility } from "./utility.ts";

import type { EvalContext, MeasureColumn, QueryCache } from "./column.ts";

function rel(q: RankedQuery, ctx: EvalContext, cache: QueryCache): RelInfo {
  return (cache.rel ??= relInfo(q, ctx.relevanceLevel));
}

/** A family's values at every parameter, computed once per query. */
function shared(cache: QueryCache, key: string, make: () => number[]): number[] {
  cache.arrays ??= new Map();
  let v = cache.arrays.get(key);
  if (!v) cache.arrays.set(key, (v = make()));
  return v;
}

function cachedStartError(q: RankedQuery, ctx: EvalContext, cache: QueryCache): StartErrorResult | null {
  if (cache.startError === undefined)
    cache.startError = ctx.starts && ctx.chunks ? startError(q, ctx.starts.get(q.qid), ctx.chunks, ctx) : null;
  return cache.startError;
}

/** The parameters of one family after parsing (defaults when none were given). */
export type Params = { raw: string | null; values: number[]; pairs: GainPair[] };

export type Family = {
  name: string;
  kind: ParamKind;
  defaults?: number[];
  /** A measure of trec_eval (computed under -c as trec_eval does) rather than ours. */
  trec: boolean;
  check?: (p: Params) => void;
  columns: (p: Params) => MeasureColumn[];
};

type Compute = MeasureColumn["compute"];
const col = (name: string, family: string, compute: Compute, extra: Partial<MeasureColumn> = {}): MeasureColumn => ({
  name,
  family,
  summary: "mean",
  integer: false,
  perQuery: true,
  fill: "trec",
  compute,
  ...extra,
});
const count = (name: string, compute: Compute): MeasureColumn =>
  col(name, name, compute, { summary: "sum", integer: true });
const single = (
  name: string,
  f: (r: RelInfo, ctx: EvalContext) => number,
  extra: Partial<MeasureColumn> = {},
): Family => ({
  name,
  kind: "none",
  trec: true,
  columns: () => [col(name, name, (q, c, cache) => f(rel(q, c, cache), c), extra)],
});
/** A family with one column per rank cutoff, all computed in one pass. */
const atCutoffs = (
  name: string,
  defaults: number[],
  f: (r: RelInfo, ctx: EvalContext, ks: number[]) => number[],
): Family => ({
  name,
  kind: "cutoffs",
  defaults,
  trec: true,
  columns: (p) =>
    p.values.map((k, j) =>
      col(`${name}_${k}`, name, (q, c, cache) => shared(cache, name, () => f(rel(q, c, cache), c, p.values))[j]),
    ),
});
/** A family with one column per fraction (printed with two decimals). */
const atFractions = (
  name: string,
  defaults: number[],
  f: (r: RelInfo, ctx: EvalContext, xs: number[]) => number[],
  key?: string,
): Family => ({
  name,
  kind: "fractions",
  defaults,
  trec: true,
  columns: (p) =>
    p.values.map((x, j) =>
      col(
        `${name}_${printfFixed(x, 2)}`,
        name,
        (q, c, cache) =>
          shared(cache, key ? `${key}:${p.values.join(",")}` : name, () => f(rel(q, c, cache), c, p.values))[j],
      ),
    ),
});

/** bpref once per query for bpref and gm_bpref. */
const sharedBpref = (q: RankedQuery, c: EvalContext, cache: QueryCache) =>
  shared(cache, "bpref", () => [bpref(rel(q, c, cache), c.relevanceLevel)])[0];
const printed = (name: string, p: Params) => (p.raw === null ? name : `${name}_${p.raw}`);
/** A family with gain parameters (`ndcg.1=3,2=9`): one column. */
const withGains = (name: string, f: (r: RelInfo, gains: Gains, p: Params) => number): Family => ({
  name,
  kind: "pairs",
  trec: true,
  columns: (p) => [
    col(printed(name, p), name, (q, c, cache) => {
      const r = rel(q, c, cache);
      return f(r, setupGains(p.pairs, r.relLevels), p);
    }),
  ],
});

const DEFAULT_CUTOFFS = [5, 10, 15, 20, 30, 100, 200, 500, 1000];

/** In output order: trec_eval's measures.c table, then ours. */
export const FAMILIES: Family[] = [
  {
    name: "runid",
    kind: "none",
    trec: true,
    columns: () => [
      col("runid", "runid", () => null, { summary: "none", perQuery: false, fill: "none", special: "runid" }),
    ],
  },
  {
    name: "num_q",
    kind: "none",
    trec: true,
    columns: () => [
      col("num_q", "num_q", () => 1, {
        summary: "sum",
        integer: true,
        perQuery: false,
        fill: "none",
        special: "num_q",
      }),
    ],
  },
  {
    name: "num_ret",
    kind: "none",
    trec: true,
    columns: () => [count("num_ret", (q, c, cache) => rel(q, c, cache).numRet)],
  },
  {
    name: "num_rel",
    kind: "none",
    trec: true,
    columns: () => [count("num_rel", (q, c, cache) => rel(q, c, cache).numRel)],
  },
  {
    name: "num_rel_ret",
    kind: "none",
    trec: true,
    columns: () => [count("num_rel_ret", (q, c, cache) => rel(q, c, cache).numRelRet)],
  },
  single("map", (r) => averagePrecisionOf(r)),
  single("gm_map", (r) => gmMap(r), { summary: "geometric", perQuery: false }),
  single("Rprec", (r) => rPrec(r)),
  {
    name: "bpref",
    kind: "none",
    trec: true,
    columns: () => [col("bpref", "bpref", (q, c, cache) => sharedBpref(q, c, cache))],
  },
  {
    name: "recip_rank",
    kind: "none",
    trec: true,
    columns: () => [col("recip_rank", "recip_rank", (q, c) => reciprocalRank(q, c))],
  },
  atFractions("iprec_at_recall", IPREC_DEFAULTS, (r, c, xs) => iprecAtRecall(r, c.relevanceLevel, xs), "interpolated"),
  {
    name: "P",
    kind: "cutoffs",
    defaults: DEFAULT_CUTOFFS,
    trec: true,
    columns: (p) => p.values.map((k) => col(`P_${k}`, "P", (q, c, cache) => precisionAtOf(rel(q, c, cache), k))),
  },
  {
    name: "relstring",
    kind: "numbers",
    defaults: [RELSTRING_DEFAULT],
    trec: true,
    columns: (p) => [
      col(printed("relstring", p), "relstring", () => null, {
        summary: "none",
        text: (q, c, cache) => relstring(rel(q, c, cache), p.values[0]),
      }),
    ],
  },
  {
    name: "recall",
    kind: "cutoffs",
    defaults: DEFAULT_CUTOFFS,
    trec: true,
    columns: (p) => p.values.map((k) => col(`recall_${k}`, "recall", (q, c, cache) => recallAtOf(rel(q, c, cache), k))),
  },
  single("infAP", (r, c) => infAP(r, c.relevanceLevel)),
  {
    name: "gm_bpref",
    kind: "none",
    trec: true,
    columns: () => [
      col("gm_bpref", "gm_bpref", (q, c, cache) => gmBpref(sharedBpref(q, c, cache)), {
        summary: "geometric",
        perQuery: false,
      }),
    ],
  },
  atFractions("Rprec_mult", RPREC_MULT_DEFAULTS, (r, c, xs) => rPrecMult(r, c.relevanceLevel, xs)),
  {
    name: "utility",
    kind: "numbers",
    defaults: UTILITY_DEFAULTS,
    trec: true,
    check: (p) => {
      if (p.values.length !== 4)
        throw new MeasureSpecError(
          `measure "utility": expected 4 coefficients (utility.a,b,c,d), got ${p.values.length} in "utility.${p.raw ?? ""}"`,
        );
    },
    columns: (p) => [
      col(printed("utility", p), "utility", (q, c, cache) =>
        utility(rel(q, c, cache), p.values, c.numDocsInCollection ?? 0),
      ),
    ],
  },
  {
    name: "11pt_avg",
    kind: "numbers",
    defaults: ELEVEN_PT_DEFAULTS,
    trec: true,
    // the interpolated precisions iprec_at_recall computed at the same points are reused
    columns: (p) => [
      col(printed("11pt_avg", p), "11pt_avg", (q, c, cache) =>
        elevenPtAvg(
          shared(cache, `interpolated:${p.values.join(",")}`, () =>
            iprecAtRecall(rel(q, c, cache), c.relevanceLevel, p.values),
          ),
          p.values.length,
        ),
      ),
    ],
  },
  single("binG", (r, c) => binG(r, c.relevanceLevel)),
  withGains("G", (r, g) => gMeasure(r, g)),
  withGains("ndcg", (r, g) => ndcgGains(r, g)),
  withGains("ndcg_rel", (r, g) => ndcgRel(r, g)),
  withGains("Rndcg", (r, g) => rNdcg(r, g)),
  atCutoffs("ndcg_cut", DEFAULT_CUTOFFS, (r, _c, ks) => ndcgCut(r, ks)),
  atCutoffs("map_cut", DEFAULT_CUTOFFS, (r, _c, ks) => mapCut(r, ks)),
  atCutoffs("relative_P", DEFAULT_CUTOFFS, (r, _c, ks) => relativeP(r, ks)),
  atCutoffs("success", SUCCESS_DEFAULTS, (r, _c, ks) => success(r, ks)),
  single("set_P", (r) => setP(r)),
  single("set_relative_P", (r) => setRelativeP(r)),
  single("set_recall", (r) => setRecall(r)),
  single("set_map", (r) => setMap(r)),
  {
    name: "set_F",
    kind: "numbers",
    defaults: [SET_F_DEFAULT],
    trec: true,
    columns: (p) => [col(printed("set_F", p), "set_F", (q, c, cache) => setF(rel(q, c, cache), p.values[0]))],
  },
  {
    name: "num_nonrel_judged_ret",
    kind: "none",
    trec: true,
    columns: () => [count("num_nonrel_judged_ret", (q, c, cache) => numNonrelJudgedRet(rel(q, c, cache)))],
  },
  withGains("rbp", (r, g, p) => rbp(r, g, persistence(p.pairs))),
  {
    name: "rbp_resid",
    kind: "pairs",
    trec: true,
    columns: (p) => [
      col(printed("rbp_resid", p), "rbp_resid", (q, c, cache) => rbpResid(rel(q, c, cache), persistence(p.pairs))),
    ],
  },
  atCutoffs("unj", UNJ_DEFAULTS, (r, _c, ks) => unj(r, ks)),
  // ours
  {
    name: "ndcg_exp",
    kind: "none",
    trec: false,
    columns: () => [col("ndcg_exp", "ndcg_exp", (q) => ndcg(q, { gain: "exponential" }), { fill: "compute" })],
  },
  {
    name: "ndcg_exp_cut",
    kind: "cutoffs",
    defaults: DEFAULT_CUTOFFS,
    trec: false,
    columns: (p) =>
      p.values.map((k) =>
        col(`ndcg_exp_cut_${k}`, "ndcg_exp_cut", (q) => ndcg(q, { cutoff: k, gain: "exponential" }), {
          fill: "compute",
        }),
      ),
  },
  {
    name: "judged",
    kind: "cutoffs",
    defaults: [10],
    trec: false,
    columns: (p) => p.values.map((k) => col(`judged_${k}`, "judged", (q) => judgedAt(q, k), { fill: "compute" })),
  },
  {
    name: "unjudged",
    kind: "cutoffs",
    defaults: [10],
    trec: false,
    columns: (p) => p.values.map((k) => col(`unjudged_${k}`, "unjudged", (q) => unjudgedAt(q, k), { fill: "compute" })),
  },
  {
    name: "start_error",
    kind: "none",
    trec: false,
    columns: () => [
      col("start_error", "start_error", (q, c, cache) => cachedStartError(q, c, cache)?.error ?? null, {
        fill: "compute",
      }),
      ...START_WITHIN_SECONDS.map((s) =>
        col(
          `start_within_${s}`,
          "start_error",
          (q, c, cache) => {
            const r = cachedStartError(q, c, cache);
            return r ? (r.error <= s ? 1 : 0) : null;
          },
          { fill: "compute" },
        ),
      ),
      col("start_rr", "start_error", (q, c, cache) => cachedStartError(q, c, cache)?.timeAwareRR ?? null, {
        fill: "compute",
      }),
    ],
  },
];
