/**
 * `assessor eval QRELS RUN...`: trec_eval-compatible evaluation of TREC runs on plain files (no
 * database). One run prints trec_eval's lines by default; several runs print a table with one
 * column per run, bootstrap confidence intervals over queries and a paired randomization test
 * against the first run.
 */
import { basename } from "node:path";
import { Command, Option } from "commander";
import { AppError, ValidationError } from "../../lib/errors.ts";
import { byteOrder, evaluateRanked, type RankOptions } from "../../lib/stats/evaluate.ts";
import {
  DEFAULT_MEASURES,
  MeasureSpecError,
  parseMeasures,
  TREC_DEFAULT_MEASURES,
} from "../../lib/stats/measures/index.ts";
import type { ChunkTime, ReferenceStart } from "../../lib/stats/measures/start-error.ts";
import { parseChunkTimes, parseReferenceStarts } from "../../lib/stats/start-inputs.ts";
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from "../../lib/stats/bootstrap.ts";
import { baselineIndex, ppiEvaluation, ppiJson, ppiText, ppiWarnings } from "./eval-ppi.ts";
import { addTimeMeasures, readTimeInputs, type TimeInputs } from "./eval-time.ts";
import { formatFixed, trecEvalLines } from "../../lib/stats/trec-output.ts";
import { readQrelsFile, rankRunFile, readInput } from "./eval-read.ts";
import { jsonOutput, notes, tableOutput, type EvalOpts, type RunEval } from "./eval-output.ts";

export { formatFixed };

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
