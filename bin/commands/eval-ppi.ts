import { basename } from "node:path";
import { AppError } from "../../lib/errors.ts";
import { judgedAtGrade, type Judgements } from "../../lib/stats/evaluate.ts";
import { retrievalColumns } from "../../lib/stats/measures/columns.ts";
import type { Gain } from "../../lib/stats/measures/ndcg.ts";
import { emptyRanking } from "../../lib/stats/measures/types.ts";
import type { TEstimate, TPpiResult } from "../../lib/stats/ppi.ts";
import { MEASURE_RANGE, ppiTable, type TAdvice, type TPpiTable } from "../../lib/stats/ppi-table.ts";
import { NO_BASIS_TEXT } from "../../lib/stats/sample-size.ts";
import { rankRunFile, readQrelsFile } from "./eval-read.ts";

/**
 * `assessor eval --ppi --judge J --human H RUN...`: the systems table from cheap labels
 * (lib/stats/ppi-table.ts). Every question of either file is in the population; the questions of
 * the human file count as completely human-labelled (it must grade every pooled chunk of them:
 * a chunk it does not grade counts as not relevant); the judge grades the rest. A run that does not
 * answer a question scores 0 on it (trec_eval -c).
 */
export type TPpiEvalOptions = {
  judge?: string;
  human?: string;
  clip?: boolean;
  format?: "trec" | "table" | "json";
  precision: number;
  baseline?: string;
  detect?: number;
  halfWidth?: number;
  gain: Gain;
};

/** Two label files must grade on one scale: 0–3, or the same wider trec_eval scale. */
export function checkSameScale(judge: Judgements, human: Judgements, judgePath: string, humanPath: string): void {
  const top = (j: Judgements) => {
    let m = -Infinity;
    for (const q of j.values()) for (const g of q.values()) m = Math.max(m, g);
    return m;
  };
  const [a, b] = [top(judge), top(human)];
  if (a !== b && (a > 3 || b > 3))
    throw new AppError(
      "bad_input",
      `${judgePath} grades up to ${a} but ${humanPath} up to ${b}: the judge and human labels are on different relevance scales (use --clip to read both on 0–3)`,
    );
}

/** The baseline's index among the runs: a path or file name given with --baseline, else the first. */
export function baselineIndex(runPaths: readonly string[], baseline: string | undefined): number {
  if (baseline === undefined) return 0;
  const k = runPaths.findIndex((p) => p === baseline || basename(p) === baseline);
  if (k < 0)
    throw new AppError(
      "bad_input",
      `--baseline ${baseline} is not one of the runs (${runPaths.map((p) => basename(p)).join(", ")})`,
    );
  return k;
}

export async function ppiEvaluation(
  runPaths: string[],
  opts: TPpiEvalOptions,
): Promise<{ table: TPpiTable; notes: string[] }> {
  if (!opts.judge || !opts.human)
    throw new AppError(
      "bad_input",
      "--ppi needs --judge FILE (the judge's labels) and --human FILE (human labels of completely labelled questions)",
    );
  const judge = readQrelsFile(opts.judge, Boolean(opts.clip)).judgements;
  const human = readQrelsFile(opts.human, Boolean(opts.clip)).judgements;
  checkSameScale(judge, human, opts.judge, opts.human);
  const shared = [...human.keys()].filter((q) => judge.has(q)).length;
  if (human.size === 0)
    throw new AppError("bad_input", `${opts.human}: no complete calibration question: the file labels no question`);
  if (shared === 0)
    throw new AppError(
      "bad_input",
      `no question of ${opts.human} is in ${opts.judge}: the two label files are over different questions (different projects?)`,
    );
  const baseline = baselineIndex(runPaths, opts.baseline);
  const notes: string[] = [];
  const judgeOnlyHuman = human.size - shared;
  if (judgeOnlyHuman)
    notes.push(`${judgeOnlyHuman} question(s) of ${opts.human} have no judge label: their judge values are 0`);
  // Population: every question of either file; the judge's grades (none for human-only questions).
  const population = new Map<string, Map<string, number>>(judge);
  for (const q of human.keys()) if (!population.has(q)) population.set(q, new Map());
  const qids = [...population.keys()].sort();
  const position = new Map(qids.map((q, i) => [q, i]));
  const labelledQids = [...human.keys()].sort();
  const columns = retrievalColumns(opts.gain);
  const judgeValues: number[][][] = [];
  const humanValues: number[][][] = [];
  for (const path of runPaths) {
    const byJudge = (await rankRunFile(path, population, { keepDocids: false })).ranked;
    const byHuman = (await rankRunFile(path, human, { keepDocids: false })).ranked;
    judgeValues.push(
      columns.map((c) =>
        qids.map((q) => c.compute(byJudge.get(q) ?? emptyRanking(q, judgedAtGrade(population.get(q)!)))),
      ),
    );
    humanValues.push(
      columns.map((c) =>
        labelledQids.map((q) => c.compute(byHuman.get(q) ?? emptyRanking(q, judgedAtGrade(human.get(q)!)))),
      ),
    );
  }
  const table = ppiTable({
    columns,
    runs: runPaths.map((p) => basename(p)),
    baseline: runPaths.length > 1 ? baseline : null,
    judge: judgeValues,
    human: humanValues,
    labelled: labelledQids.map((q) => position.get(q)!),
    delta: opts.detect,
    halfWidth: opts.halfWidth,
  });
  return { table, notes };
}

const WARNING_TEXT: Record<string, string> = {
  few_labelled:
    "fewer than 10 complete questions: the intervals rest on a normal approximation with few questions; label more (assessor assign --sample-queries N)",
  judge_adds_nothing: "λ near 0: the judge adds (almost) nothing here, the PPI interval is the human-only one",
  all_labelled: "every question is human-labelled: PPI is the human-only estimate",
  too_few_labelled: "one complete question: no interval",
  no_labelled: "no complete question",
};

export function ppiWarnings(table: TPpiTable): string[] {
  const seen = new Map<string, number>();
  for (const row of table.rows)
    for (const cell of row.cells) for (const w of cell.mean.warnings) seen.set(w, (seen.get(w) ?? 0) + 1);
  return [...seen].map(([w, count]) =>
    w === "judge_adds_nothing" ? `${WARNING_TEXT[w]} (${count} cell(s))` : WARNING_TEXT[w],
  );
}

export function ppiText(table: TPpiTable, d: number, baseline: string | null): string[] {
  const est = (e: TEstimate | null) =>
    e ? `${e.estimate.toFixed(d)} [${e.low.toFixed(d)}, ${e.high.toFixed(d)}]` : "–";
  const signed = (r: TPpiResult | null) =>
    r?.ppi
      ? `${r.ppi.estimate >= 0 ? "+" : ""}${r.ppi.estimate.toFixed(d)} [${r.ppi.low.toFixed(d)}, ${r.ppi.high.toFixed(d)}] p=${(r.p ?? 1).toFixed(d)}`
      : "";
  const header = [
    "measure",
    "run",
    "human",
    "judge",
    "judge + human (PPI)",
    "λ",
    "PPI vs human",
    baseline ? `Δ vs ${baseline} (PPI)` : "",
  ];
  const rows: string[][] = [];
  table.rows[0]?.cells.forEach((_, c) => {
    for (const row of table.rows) {
      const cell = row.cells[c];
      const m = cell.mean;
      const narrower =
        cell.narrowerBy === null
          ? "–"
          : `${Math.round(Math.abs(cell.narrowerBy) * 100)}% ${cell.narrowerBy >= 0 ? "narrower" : "wider"}`;
      rows.push([
        table.columns[c].label,
        row.system,
        est(m.human),
        est(m.judge),
        m.ppi ? est(m.ppi) : m.pointOnly === null ? "–" : m.pointOnly.toFixed(d),
        m.lambda === null ? "–" : m.lambda.toFixed(2),
        narrower,
        signed(cell.diff),
      ]);
    }
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((x, i) => x.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  const out = [
    `${table.questions} questions, ${table.labelled} completely human-labelled; 95% intervals (normal approximation, clipped to the measures' range [${MEASURE_RANGE.join(", ")}], differences to [${-MEASURE_RANGE[1]}, ${MEASURE_RANGE[1]}])`,
    fmt(header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.map(fmt),
  ];
  if (table.advisor.length) {
    out.push(
      "",
      `Queries needed (paired t-test, α = 0.05, power 0.8; Sakai's topic-set-size design with the observed sd of per-question differences): to detect δ = ${table.delta}, and for a 95% interval of ±${table.halfWidth}`,
    );
    const aHeader = ["measure", "run", "Δ (PPI) [95%]", "sd", `to detect ${table.delta}`, `for ±${table.halfWidth}`];
    const count = (a: TAdvice, n: number | null) => (a.noBasis ? "no basis" : n === null ? "–" : String(n));
    const aRows = table.advisor.map((a) => [
      a.label,
      a.system,
      a.difference === null
        ? "–"
        : `${a.difference.toFixed(d)}${a.low === null ? "" : ` [${a.low.toFixed(d)}, ${(a.high ?? 0).toFixed(d)}]`}`,
      a.sd === null ? "–" : `${a.sd.toFixed(d)} (${a.sdSource})`,
      count(a, a.toDetect),
      count(a, a.forHalfWidth),
    ]);
    const aw = aHeader.map((h, i) => Math.max(h.length, ...aRows.map((r) => r[i].length)));
    const f = (r: string[]) =>
      r
        .map((x, i) => x.padEnd(aw[i]))
        .join("  ")
        .trimEnd();
    out.push(f(aHeader), aw.map((w) => "-".repeat(w)).join("  "), ...aRows.map(f));
    for (const reason of new Set(table.advisor.flatMap((a) => (a.noBasis ? [a.noBasis] : []))))
      out.push(NO_BASIS_TEXT[reason]);
  }
  return out;
}

export function ppiJson(table: TPpiTable, judgePath: string, humanPath: string, baseline: string | null): unknown {
  const est = (e: TEstimate | null) =>
    e ? { estimate: e.estimate, low: e.low, high: e.high, width: e.high - e.low } : null;
  const result = (r: TPpiResult) => ({
    ppi: est(r.ppi),
    point_only: r.pointOnly,
    lambda: r.lambda,
    human: est(r.human),
    judge: est(r.judge),
    p: r.p,
    n: r.n,
    unlabelled: r.unlabelled,
    warnings: r.warnings,
  });
  return {
    judge: judgePath,
    human: humanPath,
    questions: table.questions,
    labelled: table.labelled,
    level: 0.95,
    /** Estimates and intervals are clipped to the measures' range (lib/stats/ppi.ts); differences to [-1, 1]. */
    range: MEASURE_RANGE,
    baseline,
    measures: table.columns.map((col, c) => ({
      id: col.id,
      label: col.label,
      runs: table.rows.map((row) => ({
        run: row.system,
        ...result(row.cells[c].mean),
        narrower_than_human: row.cells[c].narrowerBy,
        ...(row.cells[c].diff ? { vs_baseline: result(row.cells[c].diff!) } : {}),
      })),
    })),
    advisor: {
      test: "paired t-test",
      alpha: 0.05,
      power: 0.8,
      delta: table.delta,
      half_width: table.halfWidth,
      rows: table.advisor.map((a) => ({
        measure: a.column,
        run: a.system,
        difference: a.difference,
        low: a.low,
        high: a.high,
        p: a.p,
        sd: a.sd,
        sd_source: a.sdSource,
        no_basis: a.noBasis,
        queries_to_detect: a.toDetect,
        queries_for_half_width: a.forHalfWidth,
      })),
    },
    warnings: ppiWarnings(table),
  };
}
