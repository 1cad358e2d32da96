import { Command, Option } from "commander";
import { AppError, ValidationError } from "../../lib/errors.ts";
import { parseRun } from "../../lib/formats/trec.ts";
import {
  fuseOptionsProblem,
  fuseScores,
  fusedRows,
  formatRun,
  METHODS,
  NORMS,
  rankedRun,
  RRF_K,
  type Method,
  type Norm,
  type RankedRun,
} from "../../lib/fusion/index.ts";
import { tuneWeights } from "../../lib/fusion/tune.ts";
import { MeasureSpecError, parseMeasures } from "../../lib/stats/measures/index.ts";
import { readInput, readQrelsFile } from "./eval-read.ts";

/**
 * `assessor fuse --method rrf|wsum|combsum|combmnz RUN… > fused.trec`: one run from several
 * (lib/fusion), written to stdout as a TREC run that imports and pools like any system's.
 * `--tune MEASURE --qrels FILE --folds N` chooses wsum's weights by cross-validation over the
 * judged queries and reports each fold's held-out score on stderr.
 */
type FuseOpts = {
  method: Method;
  k: number;
  norm?: Norm;
  weights?: number[];
  tag: string;
  depth?: number;
  tune?: string;
  qrels?: string;
  folds: number;
  seed: number;
};

const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`${name} must be a positive integer, got "${v}"`);
  return Number(v);
};

function weightList(v: string): number[] {
  const parts = v.split(",");
  const w = parts.map((x) => (x.trim() === "" ? NaN : Number(x)));
  if (w.some((x) => !Number.isFinite(x)))
    throw new Error(`--weights must be numbers separated by commas (e.g. 0.7,0.3), got "${v}"`);
  return w;
}

export function registerFuse(program: Command): void {
  const cmd = program
    .command("fuse")
    .description("fuse TREC runs into one (reciprocal rank fusion, weighted sum, CombSUM, CombMNZ), written to stdout")
    .argument("<runs...>", "run files: qid Q0 docid rank score tag")
    .addOption(new Option("--method <method>", "fusion method").choices([...METHODS]).makeOptionMandatory())
    .option("--k <k>", "rrf: the constant k in 1 / (k + rank)", positiveInt("--k"), RRF_K)
    .addOption(
      new Option(
        "--norm <norm>",
        "score normalisation per query before wsum, combsum, combmnz (default min-max, as ranx)",
      ).choices([...NORMS]),
    )
    .option("--weights <w>", "wsum: one weight per run, comma-separated (default all 1)", weightList)
    .option("--tag <tag>", "the fused run's tag (last column)", "fused")
    .option("--depth <n>", "keep the top n documents of each query", positiveInt("--depth"))
    .option(
      "--tune <measure>",
      "wsum: choose the weights that maximise this measure (e.g. ndcg_cut.10) by cross-validation over the judged queries",
    )
    .option("--qrels <file>", "qrels for --tune")
    .option("--folds <n>", "cross-validation folds for --tune", positiveInt("--folds"), 5)
    .option("--seed <s>", "seed for the fold assignment", positiveInt("--seed"), 1)
    .action((paths: string[], opts: FuseOpts) => {
      const usage = (m: string): never => cmd.error(`error: ${m}`, { exitCode: 2 });
      const problem = fuseOptionsProblem(paths.length, opts);
      if (problem) usage(problem);
      if (opts.tune && opts.method !== "wsum") usage("--tune chooses wsum's weights: use it with --method wsum");
      if (opts.tune && opts.weights) usage("--tune chooses the weights: leave out --weights");
      if (opts.tune && !opts.qrels) usage("--tune needs --qrels FILE");
      if (!opts.tune && opts.qrels) usage("--qrels is only used by --tune");
      const runs: RankedRun[] = paths.map((path) => {
        const parsed = parseRun(readInput(path), path);
        if (parsed.errors.length) throw new ValidationError(parsed.errors);
        return rankedRun(parsed.rows);
      });
      const norm = opts.norm ?? "min-max";
      let weights = opts.weights;
      if (opts.tune && opts.qrels) {
        let column;
        try {
          const parsed = parseMeasures([opts.tune]);
          if (parsed.columns.length !== 1 || parsed.columns[0].summary !== "mean")
            usage(`--tune needs one measure averaged over queries (e.g. ndcg_cut.10), got "${opts.tune}"`);
          column = parsed.columns[0];
        } catch (e) {
          if (e instanceof MeasureSpecError) usage(e.message);
          throw e;
        }
        const { judgements } = readQrelsFile(opts.qrels, false);
        if (judgements.size < opts.folds)
          throw new AppError(
            "bad_input",
            `${opts.qrels}: ${judgements.size} judged queries cannot make ${opts.folds} folds`,
          );
        const t = tuneWeights(runs, { column, judgements, folds: opts.folds, norm, seed: opts.seed });
        const w = (ws: number[]) => ws.map((x) => x.toFixed(2)).join(",");
        process.stderr.write(
          `tuning ${column.name} over ${t.grid} weight vectors (steps of 0.1), ${opts.folds} folds of the ${judgements.size} judged queries (seed ${opts.seed}):\n`,
        );
        process.stderr.write("fold  queries  weights (chosen on the other folds)  train  held-out\n");
        for (const f of t.folds)
          process.stderr.write(
            `${String(f.fold).padStart(4)}  ${String(f.queries).padStart(7)}  ${w(f.weights).padEnd(35)}  ${f.train.toFixed(4)}  ${f.test.toFixed(4)}\n`,
          );
        process.stderr.write(
          `mean held-out ${column.name}: ${t.meanTest.toFixed(4)}; weights written (chosen on all judged queries): ${w(t.weights)}\n`,
        );
        weights = t.weights;
      }
      const scores = fuseScores(runs, { method: opts.method, k: opts.k, norm, weights });
      process.stdout.write(formatRun(fusedRows(scores, opts.depth), opts.tag));
    });
}
