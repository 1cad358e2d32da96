/**
 * What `assessor eval` prints for several runs (eval.ts): the table with bootstrap intervals and
 * paired tests against the baseline run, its notes, the queries-needed advice, and the JSON form.
 */
import { basename } from "node:path";
import { type EvalResult } from "../../lib/stats/evaluate.ts";
import { type MeasureColumn } from "../../lib/stats/measures/index.ts";
import { bootstrapMeanCI, type Interval } from "../../lib/stats/bootstrap.ts";
import { pairedRandomizationTest } from "../../lib/stats/paired.ts";
import {
  adviceSpread,
  NO_BASIS_TEXT,
  queriesForHalfWidth,
  queriesToDetect,
  type TNoBasis,
} from "../../lib/stats/sample-size.ts";

export type EvalOpts = {
  measure?: string[];
  l: number;
  M?: number;
  J?: boolean;
  N: number;
  R: string;
  q?: boolean;
  c?: boolean;
  n?: boolean;
  format?: "trec" | "table" | "json";
  precision: number;
  queries?: string;
  chunks?: string;
  tolerance?: number;
  clip?: boolean;
  bootstrap: number;
  halfWidth?: number;
  detect?: number;
  ppi?: boolean;
  judge?: string;
  human?: string;
  baseline?: string;
  gain: "exponential" | "linear";
  trials: number;
  seed: number;
};

export type RunEval = { file: string; result: EvalResult; runid: string };

/** Columns with a number per query and a summary (the table and JSON leave out runid, num_q and relstring). */
const statColumn = (col: MeasureColumn) => col.summary !== "none" && !col.special;

export function notes(runs: RunEval[], opts: EvalOpts): string[] {
  const out: string[] = [];
  for (const { file, result } of runs) {
    if (result.missingFromRun.length)
      out.push(
        `${file}: ${result.missingFromRun.length} quer${result.missingFromRun.length === 1 ? "y" : "ies"} of the qrels not in the run (${preview(result.missingFromRun)}): ${opts.c ? "scored 0 and averaged in (-c)" : "left out of the means (use -c to score them 0)"}`,
      );
    if (result.ignoredQueries.length)
      out.push(
        `${file}: ${result.ignoredQueries.length} quer${result.ignoredQueries.length === 1 ? "y" : "ies"} not in the qrels ignored (${preview(result.ignoredQueries)})`,
      );
  }
  return out;
}

const preview = (ids: string[]) => (ids.length > 5 ? `${ids.slice(0, 5).join(", ")}, …` : ids.join(", "));

/** `toDetect`: the questions --detect asks for, or the reason the spread gives no basis for a number. */
type Comparison = { meanDiff: number; p: number; n: number; toDetect: number | TNoBasis | null };

/** A question count of the advisor, or why there is none (lib/stats/sample-size.ts adviceSpread). */
function advice(values: readonly number[], count: (sd: number) => number): number | TNoBasis {
  const { sd, noBasis } = adviceSpread(values);
  return noBasis ?? count(sd);
}
const adviceText = (a: number | TNoBasis) => (typeof a === "number" ? String(a) : "no basis");

/** Per-query values of one column keyed by qid (non-null only). */
function byQuery(r: EvalResult, c: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < r.queries.length; i++) {
    const v = r.values[c][i];
    if (v !== null) m.set(r.queries[i], v);
  }
  return m;
}

function analyse(runs: RunEval[], opts: EvalOpts) {
  const columns = runs[0].result.columns;
  return columns
    .flatMap((col, c) => (statColumn(col) ? [{ col, c }] : []))
    .map(({ col, c }) => {
      const perRun = runs.map(({ result }) => {
        const vals = result.values[c].filter((v): v is number => v !== null);
        const ci: Interval | null =
          col.summary === "mean" && opts.bootstrap > 0
            ? bootstrapMeanCI(vals, { resamples: opts.bootstrap, seed: opts.seed })
            : null;
        const halfWidth = opts.halfWidth;
        const needed =
          halfWidth && col.summary === "mean" ? advice(vals, (sd) => queriesForHalfWidth(sd, halfWidth)) : null;
        return { value: result.summary[c], ci, n: vals.length, needed };
      });
      const base = byQuery(runs[0].result, c);
      const comparisons: (Comparison | null)[] = runs.map(({ result }, k) => {
        if (k === 0 || col.summary !== "mean") return null;
        const other = byQuery(result, c);
        const a: number[] = [];
        const b: number[] = [];
        for (const [qid, v] of base) {
          const w = other.get(qid);
          if (w !== undefined) {
            a.push(v);
            b.push(w);
          }
        }
        const t = pairedRandomizationTest(a, b, { trials: opts.trials, seed: opts.seed });
        const detect = opts.detect;
        return {
          meanDiff: t.meanDiff,
          p: t.p,
          n: t.n,
          toDetect: detect
            ? advice(
                b.map((v, i) => v - a[i]),
                (sd) => queriesToDetect(sd, detect),
              )
            : null,
        };
      });
      return { column: col, perRun, comparisons };
    });
}

/** --half-width in JSON: per measure the number of questions, null without a basis (and the reason under no_basis). */
function queriesNeededJson(halfWidth: number, byMeasure: [string, number | TNoBasis | null][]) {
  const noBasis = byMeasure.filter((e): e is [string, TNoBasis] => typeof e[1] === "string");
  return {
    half_width: halfWidth,
    level: 0.95,
    by_measure: Object.fromEntries(byMeasure.map(([m, n]) => [m, typeof n === "number" ? n : null])),
    ...(noBasis.length ? { no_basis: Object.fromEntries(noBasis) } : {}),
  };
}

export function jsonOutput(runs: RunEval[], opts: EvalOpts): string {
  const analysis = analyse(runs, opts);
  const round = (v: number | null) => (v === null ? null : Number(v.toFixed(Math.max(opts.precision, 6))));
  return JSON.stringify(
    {
      relevance_level: opts.l,
      complete: Boolean(opts.c),
      bootstrap: { resamples: opts.bootstrap, seed: opts.seed, level: 0.95 },
      runs: runs.map(({ file, result }, k) => ({
        run: file,
        num_q: result.numQ,
        averaged_over: result.averagedOver,
        answered: result.answered,
        missing_from_run: {
          count: result.missingFromRun.length,
          handling: opts.c ? "scored_zero" : "excluded",
          queries: result.missingFromRun,
        },
        ignored_queries: result.ignoredQueries,
        measures: Object.fromEntries(analysis.map((a) => [a.column.name, round(a.perRun[k].value)])),
        ...(opts.halfWidth
          ? {
              queries_needed: queriesNeededJson(
                opts.halfWidth,
                analysis.filter((a) => a.column.summary === "mean").map((a) => [a.column.name, a.perRun[k].needed]),
              ),
            }
          : {}),
        ci: Object.fromEntries(
          analysis
            .filter((a) => a.perRun[k].ci)
            .map((a) => [
              a.column.name,
              { low: round(a.perRun[k].ci?.low ?? null), high: round(a.perRun[k].ci?.high ?? null) },
            ]),
        ),
        ...(k > 0
          ? {
              vs_first: Object.fromEntries(
                analysis
                  .filter((a) => a.comparisons[k])
                  .map((a) => {
                    const cmp = a.comparisons[k] as Comparison;
                    const detect =
                      typeof cmp.toDetect === "number" ? { n: cmp.toDetect } : { n: null, no_basis: cmp.toDetect };
                    return [
                      a.column.name,
                      {
                        mean_diff: round(cmp.meanDiff),
                        p: round(cmp.p),
                        n: cmp.n,
                        test: "paired randomization",
                        ...(opts.detect
                          ? { queries_to_detect: { delta: opts.detect, alpha: 0.05, power: 0.8, ...detect } }
                          : {}),
                      },
                    ];
                  }),
              ),
            }
          : {}),
        ...(opts.q
          ? {
              per_query: Object.fromEntries(
                result.queries.map((qid, i) => [
                  qid,
                  Object.fromEntries(
                    result.columns.flatMap((col, c) =>
                      statColumn(col) ? [[col.name, round(result.values[c][i])]] : [],
                    ),
                  ),
                ]),
              ),
            }
          : {}),
      })),
    },
    null,
    2,
  );
}

export function tableOutput(runs: RunEval[], opts: EvalOpts): string[] {
  const analysis = analyse(runs, opts);
  const d = opts.precision;
  const header = [
    "measure",
    ...runs.map(({ file }, k) => (k === 0 ? basename(file) : `${basename(file)} (Δ vs first, p)`)),
  ];
  const rows: string[][] = [["num_q", ...runs.map(({ result }) => String(result.numQ))]];
  const unanswered = runs.some(({ result }) => result.answered !== result.numQ);
  if (unanswered) rows.push(["answered", ...runs.map(({ result }) => String(result.answered))]);
  for (const a of analysis) {
    rows.push([
      a.column.name,
      ...a.perRun.map((r, k) => {
        if (r.value === null) return "–";
        let cell = a.column.integer ? String(r.value) : r.value.toFixed(d);
        if (r.ci) cell += ` [${r.ci.low.toFixed(d)}, ${r.ci.high.toFixed(d)}]`;
        const cmp = a.comparisons[k];
        if (cmp)
          cell += ` (${cmp.meanDiff >= 0 ? "+" : ""}${cmp.meanDiff.toFixed(d)}, p=${cmp.p.toFixed(d)}${cmp.toDetect === null ? "" : `, detect: ${adviceText(cmp.toDetect)}`})`;
        if (r.needed !== null) cell += typeof r.needed === "number" ? ` n≥${r.needed}` : " n: no basis";
        return cell;
      }),
    ]);
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmtRow = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  const out = [
    fmtRow(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(fmtRow),
    "",
    meansOver(runs, opts),
  ];
  if (opts.bootstrap > 0)
    out.push(
      `[low, high]: 95% bootstrap percentile interval over queries (${opts.bootstrap} resamples, seed ${opts.seed}).`,
    );
  if (opts.halfWidth)
    out.push(
      `n≥N: queries a 95% CI of the mean needs for a half-width of ±${opts.halfWidth} (normal approximation with the observed per-query sd).`,
    );
  if (opts.detect && runs.length > 1)
    out.push(
      `detect: N: queries a paired t-test needs to detect a difference of ${opts.detect} with power 0.8 at α = 0.05 (Sakai's topic-set-size design with the observed sd of per-query differences).`,
    );
  if (runs.length > 1)
    out.push(
      `(Δ, p): mean difference from the first run on the queries both evaluate, two-sided paired randomization test (${opts.trials} trials).`,
    );
  const reasons = new Set(
    analysis
      .flatMap((a) => [...a.perRun.map((r) => r.needed), ...a.comparisons.map((c) => c?.toDetect ?? null)])
      .filter((v): v is TNoBasis => typeof v === "string"),
  );
  for (const reason of reasons) out.push(`${NO_BASIS_TEXT[reason]} (no number of queries is given).`);
  return out;
}

/** The table's line saying what its means are over (num_q; with -c, how many of those the run answered). */
function meansOver(runs: RunEval[], opts: EvalOpts): string {
  if (!opts.c)
    return "Means are over num_q: the queries of the qrels that the run answers (-c: every query of the qrels).";
  if (runs.every(({ result }) => result.answered === result.numQ))
    return "Means are over num_q: every query of the qrels (-c); the run answers all of them.";
  return 'Means are over num_q: every query of the qrels (-c). Only "answered" of them are in the run; the others count with the values trec_eval -c gives a query the run does not answer (0 on most measures).';
}
