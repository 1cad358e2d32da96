/**
 * The measure registry: every measure of trec_eval 10.0's `-m all_trec`, with trec_eval's names,
 * parameters (params.ts: `-m P.5,10`, `-m ndcg.1=3,2=9`, `-m iprec_at_recall..10,.20`,
 * `-m utility.2,-1,0,0`), printed names (`P_5`, `iprec_at_recall_0.10`, `ndcg_1=3,2=9`), output
 * order (trec_eval's measure table, measures.c) and summaries (mean, sum for the counts, geometric
 * mean for gm_map and gm_bpref, none for relstring); the nicknames `official`, `all_trec` and
 * `set`; then ours (ndcg_exp, ndcg_exp_cut, judged, unjudged, the start_error family).
 *
 * One measure per file in this folder; each names its definition and trec_eval source file.
 */
import { FAMILIES, type Family, type Params } from "./families.ts";
import { MeasureSpecError, parseCutoffs, parseFractions, parseNumbers, parsePairs } from "./params.ts";
import type { MeasureColumn, Summary } from "./column.ts";
import { geometricMean } from "./geometric.ts";

export { MeasureSpecError } from "./params.ts";
export { geometricMean } from "./geometric.ts";
export type { EvalContext, MeasureColumn, QueryCache, Summary } from "./column.ts";

export const MEASURE_NAMES = FAMILIES.map((f) => f.name);

/** trec_eval's `official` measures; `all_trec` begins with them (measures.c). */
const OFFICIAL = [
  "runid",
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "gm_map",
  "Rprec",
  "bpref",
  "recip_rank",
  "iprec_at_recall",
  "P",
] as const;

/** trec_eval's nicknames (measures.c). */
export const NICKNAMES: Record<string, readonly string[]> = {
  official: OFFICIAL,
  all_trec: [
    ...OFFICIAL,
    "relstring",
    "recall",
    "infAP",
    "gm_bpref",
    "Rprec_mult",
    "utility",
    "11pt_avg",
    "binG",
    "G",
    "ndcg",
    "ndcg_rel",
    "Rndcg",
    "ndcg_cut",
    "map_cut",
    "relative_P",
    "success",
    "set_P",
    "set_relative_P",
    "set_recall",
    "set_map",
    "set_F",
    "num_nonrel_judged_ret",
    "rbp",
    "rbp_resid",
    "unj",
  ],
  set: [
    "runid",
    "num_q",
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "utility",
    "set_P",
    "set_recall",
    "set_relative_P",
    "set_map",
    "set_F",
  ],
};

/** trec_eval's default when no -m is given. */
export const TREC_DEFAULT_MEASURES = ["official"];

/** Ours when no -m is given for a table or JSON (several runs). */
export const DEFAULT_MEASURES = [
  "num_q",
  "num_ret",
  "num_rel",
  "num_rel_ret",
  "map",
  "recip_rank",
  "P.5,10",
  "recall.5,10,100",
  "ndcg",
  "ndcg_cut.5,10",
  "ndcg_exp_cut.5,10",
  "judged.10",
];

/**
 * Turns `-m` values into columns in output order, as trec_eval does: `name` or a nickname marks
 * measures; `name.params` marks the measure and sets its parameters, which replace the defaults
 * even when a nickname also marks it (`-m all_trec -m P.5` prints P_5 only). Given twice, cutoff
 * and fraction lists are merged (`-m P.5 -m P.10`: P_5 and P_10; trec_eval keeps the first),
 * other parameters keep the first. Unknown names and bad parameters throw MeasureSpecError.
 */
export function parseMeasures(specs: readonly string[]): {
  columns: MeasureColumn[];
  numQ: boolean;
  startError: boolean;
} {
  const marked = new Set<string>();
  const given = new Map<string, Params>();
  for (const spec of specs) {
    const dot = spec.indexOf(".");
    const name = dot < 0 ? spec : spec.slice(0, dot);
    const raw = dot < 0 ? null : spec.slice(dot + 1);
    const nick = NICKNAMES[name];
    if (nick && raw === null) {
      for (const n of nick) marked.add(n);
      continue;
    }
    const family = FAMILIES.find((f) => f.name === name);
    if (!family)
      throw new MeasureSpecError(
        `unknown measure "${name}" (known: ${Object.keys(NICKNAMES).join(", ")}, ${MEASURE_NAMES.join(", ")})`,
      );
    marked.add(name);
    if (raw === null) continue;
    if (family.kind === "none") throw new MeasureSpecError(`measure "${name}" takes no parameters (got "${spec}")`);
    if (raw === "") throw new MeasureSpecError(`measure "${name}": empty parameter list in "${spec}"`);
    const p = parseParams(family, raw);
    const before = given.get(name);
    if (!before) given.set(name, p);
    else if (family.kind === "cutoffs" || family.kind === "fractions")
      given.set(name, { raw: null, values: sortedUnique([...before.values, ...p.values]), pairs: [] });
  }
  const columns: MeasureColumn[] = [];
  for (const f of FAMILIES) {
    if (!marked.has(f.name)) continue;
    const p = given.get(f.name) ?? {
      raw: null,
      values: f.kind === "cutoffs" || f.kind === "fractions" ? sortedUnique(f.defaults ?? []) : (f.defaults ?? []),
      pairs: [],
    };
    f.check?.(p);
    columns.push(...f.columns(p));
  }
  return { columns, numQ: marked.has("num_q"), startError: marked.has("start_error") };
}

function sortedUnique(xs: readonly number[]): number[] {
  return [...new Set(xs)].sort((a, b) => a - b);
}

function parseParams(family: Family, raw: string): Params {
  switch (family.kind) {
    case "cutoffs":
      return { raw, values: parseCutoffs(family.name, raw), pairs: [] };
    case "fractions":
      return { raw, values: parseFractions(family.name, raw), pairs: [] };
    case "numbers":
      return { raw, values: parseNumbers(family.name, raw), pairs: [] };
    default:
      return { raw, values: [], pairs: parsePairs(family.name, raw) };
  }
}

/**
 * trec_eval 10.0's clean-up of a query missing from the run under -c (trec_eval.c lines 416–431,
 * after evaluating its stand-in ranking): values named exactly num_ret, utility or rbp_resid, or
 * starting with "unj", are set to 0. The names are compared as printed, so utility and rbp_resid
 * with parameters (utility_2,-1,0,0, rbp_resid_p=0.8) keep their computed value, as there.
 * undefined: keep the computed value.
 */
export function missingQueryValue(col: MeasureColumn): number | undefined {
  if (col.fill !== "trec") return undefined;
  return col.name === "num_ret" || col.name === "utility" || col.name === "rbp_resid" || col.name.startsWith("unj")
    ? 0
    : undefined;
}

/** The same for text: relstring (exactly that name) is cleared to '' (clear_relstr in m_relstring.c). */
export function missingQueryText(col: MeasureColumn): string | undefined {
  return col.fill === "trec" && col.name === "relstring" ? "" : undefined;
}

/** The summary of one column over the per-query values (nulls skipped); null when none. */
export function summarise(values: readonly (number | null)[], kind: Summary): number | null {
  const present: number[] = [];
  for (const v of values) if (v !== null) present.push(v);
  if (kind === "none") return null;
  if (kind === "geometric") return geometricMean(present);
  let sum = 0;
  for (const v of present) sum += v;
  if (kind === "sum") return sum;
  return present.length === 0 ? null : sum / present.length;
}
