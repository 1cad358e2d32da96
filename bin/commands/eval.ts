import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { Command, Option } from "commander";
import { AppError, ValidationError, type LocatedError } from "../../lib/errors.ts";
import { parseQrels, scanRunFile } from "../../lib/formats/trec.ts";
import {
  byteOrder,
  evaluateRanked,
  judgementsFrom,
  rankQueryChecked,
  type EvalResult,
  type Judgements,
  type RankOptions,
  type RunQuery,
} from "../../lib/stats/evaluate.ts";
import type { RankedQuery } from "../../lib/stats/measures/types.ts";
import {
  DEFAULT_MEASURES,
  MeasureSpecError,
  parseMeasures,
  TREC_DEFAULT_MEASURES,
  type MeasureColumn,
} from "../../lib/stats/measures/index.ts";
import type { ChunkTime, ReferenceStart } from "../../lib/stats/measures/start-error.ts";
import { parseChunkTimes, parseReferenceStarts } from "../../lib/stats/start-inputs.ts";
import { bootstrapMeanCI, DEFAULT_RESAMPLES, DEFAULT_SEED, type Interval } from "../../lib/stats/bootstrap.ts";
import { pairedRandomizationTest } from "../../lib/stats/paired.ts";
import {
  adviceSpread,
  NO_BASIS_TEXT,
  queriesForHalfWidth,
  queriesToDetect,
  type TNoBasis,
} from "../../lib/stats/sample-size.ts";
import { baselineIndex, ppiEvaluation, ppiJson, ppiText, ppiWarnings } from "./eval-ppi.ts";
import { addTimeMeasures, readTimeInputs, type TimeInputs } from "./eval-time.ts";
import { formatFixed, trecEvalLines } from "../../lib/stats/trec-output.ts";

export { formatFixed };

/**
 * `assessor eval QRELS RUN...`: trec_eval-compatible evaluation of TREC runs on plain files (no
 * database). One run prints trec_eval's lines by default; several runs print a table with one
 * column per run, bootstrap confidence intervals over queries and a paired randomization test
 * against the first run.
 */

const MAX_ERRORS = 1000;

/** Run lines as trec_eval reads them: the rank column is never read (any text), columns after the sixth are ignored. */
const RUN_READ = { rank: "ignored" } as const;

type EvalOpts = {
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

export function readQrelsFile(path: string, clip: boolean): { judgements: Judgements; clipped: number } {
  const bytes = readInput(path);
  // trec_eval's relevance values (any integer, negative = in the pool but unjudged), unless --clip
  // asks for the 0–3 scale.
  const parsed = parseQrels(bytes, path, { clip, scale: "trec" });
  if (parsed.errors.length) throw new ValidationError(parsed.errors);
  return { judgements: judgementsFrom(parsed.rows), clipped: parsed.clipped };
}

export function readInput(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new ValidationError([
      {
        file: path,
        line: 0,
        message: `cannot read the file (${e instanceof Error && "code" in e ? String((e as { code: unknown }).code) : String(e)})`,
      },
    ]);
  }
}

/**
 * Reads a run file and ranks each query as soon as its block of lines ends, so only one query's
 * lines are in memory at a time (runs list a query's lines together). Queries the qrels do not
 * judge are skipped (trec_eval ignores them) and their ids collected. A query whose lines are
 * split across the file is read again in a second pass; a docid twice in one query is detected per
 * query and only then is the file read again to name the lines.
 */
export async function rankRunFile(
  path: string,
  judgements: Judgements,
  rankOpts: RankOptions,
): Promise<{ ranked: Map<string, RankedQuery>; ignored: Set<string>; runid: string }> {
  let runid = "";
  const ranked = new Map<string, RankedQuery>();
  const ignored = new Set<string>();
  const split = new Set<string>();
  const duplicated = new Set<string>();
  const errors: LocatedError[] = [];
  let blockQid: string | null = null;
  let keep = false; // the current block belongs to a judged query read in this pass
  const block: RunQuery = { docids: [], scores: [] };
  const finish = (qid: string, q: RunQuery) => {
    const judged = judgements.get(qid);
    if (!judged) return;
    const r = rankQueryChecked(qid, q, judged, rankOpts);
    if (r) ranked.set(qid, r);
    else duplicated.add(qid);
  };
  const onError = (e: LocatedError) => {
    if (errors.length < MAX_ERRORS) errors.push(e);
  };
  try {
    await scanRunFile(
      path,
      (qid, docid, _rank, score, tag) => {
        runid = tag; // trec_eval prints the tag of the last line as runid
        if (qid !== blockQid) {
          if (blockQid !== null && keep) finish(blockQid, block);
          block.docids.length = 0;
          block.scores.length = 0;
          blockQid = qid;
          keep = judgements.has(qid);
          if (!keep) ignored.add(qid);
          else if (split.has(qid)) keep = false;
          else if (ranked.has(qid) || duplicated.has(qid)) {
            split.add(qid); // seen before: its lines are not together; read it whole in pass two
            ranked.delete(qid);
            duplicated.delete(qid);
            keep = false;
          }
        }
        if (keep) {
          block.docids.push(docid);
          block.scores.push(score);
        }
      },
      onError,
      RUN_READ,
    );
    if (blockQid !== null && keep) finish(blockQid, block);
    if (errors.length) throw new ValidationError(errors);
    if (split.size) {
      const whole = new Map<string, RunQuery>([...split].map((qid) => [qid, { docids: [], scores: [] }]));
      await scanRunFile(
        path,
        (qid, docid, _rank, score) => {
          const q = whole.get(qid);
          if (q) {
            q.docids.push(docid);
            q.scores.push(score);
          }
        },
        onError,
        RUN_READ,
      );
      for (const [qid, q] of whole) finish(qid, q);
    }
  } catch (e) {
    if (e instanceof ValidationError) throw e;
    throw new ValidationError([
      {
        file: path,
        line: 0,
        message: `cannot read the file (${e instanceof Error && "code" in e ? String((e as { code: unknown }).code) : String(e)})`,
      },
    ]);
  }
  if (duplicated.size) throw new ValidationError(await locateDuplicates(path, duplicated));
  return { ranked, ignored, runid };
}

async function locateDuplicates(path: string, qids: Set<string>): Promise<LocatedError[]> {
  const firstLine = new Map<string, Map<string, number>>();
  const errors: LocatedError[] = [];
  await scanRunFile(
    path,
    (qid, docid, _rank, _score, _tag, line) => {
      if (!qids.has(qid) || errors.length >= MAX_ERRORS) return;
      let seen = firstLine.get(qid);
      if (!seen) firstLine.set(qid, (seen = new Map()));
      const first = seen.get(docid);
      if (first === undefined) seen.set(docid, line);
      else
        errors.push({
          file: path,
          line,
          field: "docid",
          message: `docid "${docid}" appears twice for query "${qid}" (first on line ${first})`,
        });
    },
    () => undefined,
    RUN_READ,
  );
  return errors;
}

// ---------------------------------------------------------------------------------------------
// output

type RunEval = { file: string; result: EvalResult; runid: string };

/** Columns with a number per query and a summary (the table and JSON leave out runid, num_q and relstring). */
const statColumn = (col: MeasureColumn) => col.summary !== "none" && !col.special;

function notes(runs: RunEval[], opts: EvalOpts): string[] {
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

function jsonOutput(runs: RunEval[], opts: EvalOpts): string {
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

function tableOutput(runs: RunEval[], opts: EvalOpts): string[] {
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

// ---------------------------------------------------------------------------------------------

const positiveNumber = (name: string) => (v: string) => {
  const x = Number(v);
  if (!(x > 0)) throw new Error(`${name} must be a positive number, got "${v}"`);
  return x;
};

const signedInt = (name: string) => (v: string) => {
  if (!/^-?\d+$/.test(v)) throw new Error(`${name} must be an integer, got "${v}"`);
  return Number(v);
};

const int = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return Number(v);
};

export function registerEval(program: Command): void {
  const cmd = program
    .command("eval")
    .description(
      "evaluate TREC runs against qrels (trec_eval-compatible: every measure of -m all_trec; several runs: table with CIs and paired tests; --ppi: judge + human labels combined by prediction-powered inference)",
    )
    .argument(
      "<files...>",
      "qrels file (qid iter docid grade), then run file(s) (qid Q0 docid rank score tag); with --ppi only run files",
    )
    .option(
      "-m, --measure <measure>",
      "measure, trec_eval style (repeatable): a name or nickname (official, all_trec, set) with optional parameters: P.5,10 ndcg_cut.5,10 ndcg.1=3,2=9 iprec_at_recall..10,.20 utility.2,-1,0,0; ours: ndcg_exp ndcg_exp_cut.k judged.k unjudged.k start_error (default: official; ours for a table)",
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option("-l <level>", "relevance level: lowest grade counted relevant (binary measures)", signedInt("-l"), 1)
    .option("-M <n>", "evaluate only the top n retrieved chunks of each query (trec_eval -M)", int("-M"))
    .option("-J", "judged only: drop retrieved chunks the qrels do not judge before computing anything (trec_eval -J)")
    .option("-N <n>", "documents in the collection (utility's fourth coefficient; trec_eval -N)", int("-N"), 0)
    .option("-R <format>", "qrels format: qrels (trec_eval's qrels_jg and prefs formats are not read)", "qrels")
    .option("-q", "also print each query's values")
    .option("-c", "average over all queries of the qrels, scoring queries missing from the run 0")
    .option("-n", "no summary lines (the 'all' lines), only the per-query ones of -q (trec_eval -n)")
    .addOption(
      new Option("--format <format>", "output format (default: trec for one run, table for several)").choices([
        "trec",
        "table",
        "json",
      ]),
    )
    .option("--precision <d>", "decimals", int("--precision"), 4)
    .option(
      "--queries <file>",
      "JSONL queries with reference starts (start_error) and answer places (answers: [{video, start, end}], the time measures)",
    )
    .option(
      "--chunks <file>",
      "JSONL chunks with video, start, end (the `chunking export` format): start_error, and the time measures span_recall_5/10, time_iou_10, seconds_read_10, time_start_error, time_within_15/30/60 after the others (when -m is not given, or with -m time)",
    )
    .option("--tolerance <s>", "with --chunks: answer-span recall's tolerance in seconds (default 5)", (v: string) => {
      const x = Number(v);
      if (!(x >= 0) || !Number.isFinite(x)) throw new Error(`--tolerance must be seconds ≥ 0, got "${v}"`);
      return x;
    })
    .option(
      "--clip",
      "map qrels grades outside 0–3 into 0–3 (without it, every relevance value trec_eval takes is used as it is: 4 gains 4 in nDCG, a negative value is in the pool but unjudged)",
    )
    .option(
      "--bootstrap <n>",
      "bootstrap resamples for confidence intervals (table/json; 0 = none)",
      int("--bootstrap"),
      DEFAULT_RESAMPLES,
    )
    .option("--trials <n>", "randomization test trials", int("--trials"), 10000)
    .option("--seed <s>", "seed for resampling", int("--seed"), DEFAULT_SEED)
    .option(
      "--half-width <h>",
      "also report how many queries a 95% CI of each mean needs to reach ± h (table/json)",
      positiveNumber("--half-width"),
    )
    .option(
      "--detect <delta>",
      "also report how many queries a paired t-test needs to detect a difference δ from the first run (baseline) with power 0.8 at α = 0.05 (table/json)",
      positiveNumber("--detect"),
    )
    .option("--baseline <run>", "run (path or file name) the others are compared with (default: the first)")
    .option(
      "--ppi",
      "prediction-powered estimates: --judge labels on every question, --human labels on completely labelled questions; prints human, judge and judge + human (PPI) intervals and the queries-needed advisor",
    )
    .option("--judge <file>", "with --ppi: the judge's qrels")
    .option("--human <file>", "with --ppi: human qrels of completely labelled questions")
    .addOption(
      new Option("--gain <gain>", "with --ppi: nDCG gain").choices(["exponential", "linear"]).default("exponential"),
    )
    .action(async (files: string[], opts: EvalOpts) => {
      if (opts.ppi) {
        await printPpi(files, opts);
        return;
      }
      if (opts.judge || opts.human) cmd.error("error: --judge and --human go with --ppi", { exitCode: 2 });
      if (files.length < 2) cmd.error("error: give a qrels file and at least one run file", { exitCode: 2 });
      const [qrelsPath, ...given] = files;
      const first = baselineIndex(given, opts.baseline);
      const runPaths = [given[first], ...given.filter((_, k) => k !== first)];
      let parsed: ReturnType<typeof parseMeasures>;
      // `-m time`: the time measures (with --chunks); they are added too when -m is not given.
      const named = (opts.measure ?? []).flatMap(splitMeasureList);
      const measures = named.filter((m) => m !== "time");
      const wantTime = named.length === 0 || measures.length < named.length;
      if (wantTime && named.length > 0 && !opts.chunks)
        cmd.error("error: -m time needs --chunks FILE (chunk times)", { exitCode: 2 });
      try {
        const format = opts.format ?? (runPaths.length > 1 ? "table" : "trec");
        // `-m time` alone asks for the time measures only: no default measures beside them.
        parsed = parseMeasures(
          measures.length || named.length ? measures : format === "trec" ? TREC_DEFAULT_MEASURES : DEFAULT_MEASURES,
        );
      } catch (e) {
        if (e instanceof MeasureSpecError) cmd.error(`error: ${e.message}`, { exitCode: 2 });
        throw e;
      }
      if (opts.R !== "qrels")
        cmd.error(
          `error: -R ${opts.R}: only the qrels format is read (trec_eval's qrels_jg, prefs and qrels_prefs are not)`,
          { exitCode: 2 },
        );
      if (parsed.startError && (!opts.queries || !opts.chunks))
        cmd.error("error: start_error needs --queries FILE (reference starts) and --chunks FILE (chunk times)", {
          exitCode: 2,
        });
      if (opts.queries && !opts.chunks && !parsed.startError)
        process.stderr.write("note: --queries is used by -m start_error and, with --chunks, by the time measures\n");
      if (opts.tolerance !== undefined && !opts.chunks)
        cmd.error("error: --tolerance goes with --chunks (the time measures)", { exitCode: 2 });
      const format = opts.format ?? (runPaths.length > 1 ? "table" : "trec");
      if (format === "trec" && runPaths.length > 1)
        cmd.error("error: --format trec prints one run; use --format table or json for several", { exitCode: 2 });

      const { judgements, clipped } = readQrelsFile(qrelsPath, Boolean(opts.clip));
      if (clipped)
        process.stderr.write(`${qrelsPath}: --clip changed ${clipped} grade${clipped === 1 ? "" : "s"} into 0–3\n`);
      let starts: Map<string, ReferenceStart> | undefined;
      let chunks: Map<string, ChunkTime> | undefined;
      if (parsed.startError && opts.queries && opts.chunks) {
        const s = parseReferenceStarts(readInput(opts.queries).toString("utf8"), opts.queries);
        const ch = parseChunkTimes(readInput(opts.chunks).toString("utf8"), opts.chunks);
        if (s.errors.length || ch.errors.length) throw new ValidationError([...s.errors, ...ch.errors]);
        starts = s.starts;
        chunks = ch.chunks;
      }
      const time: TimeInputs | null =
        opts.chunks && wantTime ? readTimeInputs(opts.chunks, opts.queries, opts.tolerance) : null;
      const runs: RunEval[] = [];
      for (const path of runPaths) {
        const rank: RankOptions = {
          keepDocids: parsed.startError || time !== null,
          maxRetrieved: opts.M,
          judgedOnly: Boolean(opts.J),
        };
        const { ranked, ignored, runid } = await rankRunFile(path, judgements, rank);
        if (ranked.size === 0)
          throw new AppError(
            "bad_input",
            `${path}: no queries with both results and relevance information in ${qrelsPath} (the query ids do not match)`,
          );
        const result = evaluateRanked(judgements, ranked, parsed.columns, {
          relevanceLevel: opts.l,
          numDocsInCollection: opts.N,
          complete: opts.c,
          starts,
          chunks,
          rank,
        });
        result.ignoredQueries = [...ignored].sort(byteOrder);
        if (time) addTimeMeasures(result, ranked, judgements, time);
        runs.push({ file: path, result, runid });
      }
      for (const n of notes(runs, opts)) process.stderr.write(`note: ${n}\n`);
      if (format === "trec")
        process.stdout.write(
          trecEvalLines(runs[0].result, {
            runid: runs[0].runid,
            perQuery: Boolean(opts.q),
            precision: opts.precision,
            summary: !opts.n,
          })
            .map((l) => `${l}\n`)
            .join(""),
        );
      else if (format === "json") process.stdout.write(`${jsonOutput(runs, opts)}\n`);
      else process.stdout.write(`${tableOutput(runs, opts).join("\n")}\n`);
    });
}

async function printPpi(runPaths: string[], opts: EvalOpts): Promise<void> {
  if (runPaths.length === 0) throw new AppError("bad_input", "--ppi: give at least one run file");
  const { table, notes } = await ppiEvaluation(runPaths, opts);
  for (const n of notes) process.stderr.write(`note: ${n}\n`);
  const baseline = runPaths.length > 1 ? basename(runPaths[baselineIndex(runPaths, opts.baseline)]) : null;
  if (opts.format === "json")
    process.stdout.write(`${JSON.stringify(ppiJson(table, opts.judge ?? "", opts.human ?? "", baseline), null, 2)}\n`);
  else {
    process.stdout.write(`${ppiText(table, opts.precision, baseline).join("\n")}\n`);
    for (const w of ppiWarnings(table)) process.stderr.write(`warning: ${w}\n`);
  }
}

/** `-m P.5,10` is one measure with two cutoffs; `-m map,P.5` is not trec_eval syntax and stays one (unknown) name. */
function splitMeasureList(v: string): string[] {
  return v
    .split(/\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
