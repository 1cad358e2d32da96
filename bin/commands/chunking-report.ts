import { Option, type Command } from "commander";
import type { TChunkingReport } from "../../lib/dashboard/chunking-report.ts";
import { safeCsv } from "../../lib/formats/csv-write.ts";
import { out, projectOption, withProject } from "../context.ts";

/**
 * `assessor chunking report [--baseline NAME] [--format table|json|csv]`: the chunking grid report
 * (lib/dashboard/chunking-report.ts, the dashboard's Chunkings card): one row per chunking ×
 * system with span recall@5/10, time-IoU@10, seconds read@10, start error, nDCG@10 on human +
 * transfer labels (PPI where an audit exists) and judged@10, each with its 95% bootstrap interval
 * over questions and a paired randomization test against the same system on the baseline chunking.
 */
type Opts = { baseline?: string; format: "table" | "json" | "csv"; gain: "exponential" | "linear"; project?: string };

const digitsOf = (seconds: boolean) => (seconds ? 1 : 3);

export function reportCsv(r: TChunkingReport): string {
  const header = ["chunking", "system", "run", "transfer_judge", "audited_questions"];
  for (const c of r.columns)
    header.push(c.id, `${c.id}_n`, `${c.id}_ci_low`, `${c.id}_ci_high`, `${c.id}_diff_vs_baseline`, `${c.id}_p`);
  header.push("ndcg_cut_10_ppi", "ndcg_cut_10_ppi_low", "ndcg_cut_10_ppi_high");
  const rows = r.rows.map((row) => {
    const cells: (string | number | null)[] = [row.chunking, row.system, row.run, row.transferJudge ?? "", row.audited];
    for (const c of row.cells)
      cells.push(c.mean, c.n, c.ci?.low ?? null, c.ci?.high ?? null, c.test?.meanDiff ?? null, c.test?.p ?? null);
    const ppi = row.cells.find((c) => c.ppi)?.ppi ?? null;
    cells.push(ppi?.estimate ?? null, ppi?.low ?? null, ppi?.high ?? null);
    return cells.map((v) => (v === null ? "" : String(v)));
  });
  return safeCsv([header, ...rows]);
}

/** The table's width: every line fits a 100-column terminal (notes are wrapped). */
export const TABLE_WIDTH = 100;

/** Words of `text` in lines of at most `width` characters (a longer word stands alone); later lines indented by `indent`. */
export function wrapText(text: string, width = TABLE_WIDTH, indent = ""): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : `${lines.length ? indent : ""}${word}`;
    if (line && next.length > width) {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The report as text within TABLE_WIDTH columns: one block per chunking × system (its name line,
 * then one line per measure: mean, 95% interval, difference from the baseline with its p-value,
 * PPI), instead of one row per chunking × system with every measure side by side (~300 columns).
 */
export function reportTable(r: TChunkingReport): string[] {
  if (r.empty) return [r.empty];
  const blocks = r.rows.map((row) => ({
    title: `${row.chunking === r.baseline ? `${row.chunking} (baseline)` : row.chunking} · ${row.system}${row.transferJudge ? ` (nDCG@10 from ${row.transferJudge}, ${row.audited} audited question${row.audited === 1 ? "" : "s"})` : ""}`,
    lines: row.cells.map((c, i) => {
      const d = digitsOf(r.columns[i].seconds);
      if (c.mean === null) return [r.columns[i].label, "–", "", "", ""];
      return [
        r.columns[i].label,
        c.mean.toFixed(d),
        c.ci ? `[${c.ci.low.toFixed(d)}, ${c.ci.high.toFixed(d)}]` : "",
        c.test ? `(${c.test.meanDiff >= 0 ? "+" : ""}${c.test.meanDiff.toFixed(d)}, p=${c.test.p.toFixed(3)})` : "",
        c.ppi ? `PPI ${c.ppi.estimate.toFixed(d)} [${c.ppi.low.toFixed(d)}, ${c.ppi.high.toFixed(d)}]` : "",
      ];
    }),
  }));
  const header = ["measure", "mean", "95% interval", "(Δ vs baseline, p)", "judge + human"];
  const all = [header, ...blocks.flatMap((b) => b.lines)];
  const widths = header.map((_, i) => Math.max(...all.map((cells) => cells[i].length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ")}`.trimEnd();
  const notes = [
    `${r.questions} questions. [low, high]: 95% bootstrap percentile interval over questions (1000 resamples, seed 1).`,
    `(Δ, p): difference from the same system on the baseline chunking ${r.baseline ?? "–"}, two-sided paired randomization test over the questions both define (1000 trials).`,
    "nDCG@10: human labels where present, else the transfer judge's (transfer:A->B); PPI: judge + human estimate where some questions are completely human-labelled on the chunking (its audit).",
    ...r.rows
      .filter((row) => row.transferJudge)
      .map(
        (row) =>
          `${row.chunking}: derived labels from ${row.transferJudge}, ${row.audited} audited question${row.audited === 1 ? "" : "s"}`,
      )
      .filter((v, i, a) => a.indexOf(v) === i),
    ...r.rows
      .filter((row) => row.transferJudge)
      .map(
        (row) =>
          `${row.chunking} ${row.system}: nDCG@10 used ${row.derived} derived label${row.derived === 1 ? "" : "s"} (pairs in a top 10 without a human label; a human label is never replaced)`,
      ),
  ];
  return [
    line(header),
    ...blocks.flatMap((b) => ["", ...wrapText(b.title, TABLE_WIDTH, "  "), ...b.lines.map(line)]),
    "",
    ...notes.flatMap((n) => wrapText(n)),
  ];
}

/** Adds `report` to the `chunking` command group (bin/commands/lifecycle.ts). */
export function registerChunkingReport(chunking: Command): void {
  chunking
    .command("report")
    .description(
      "the chunking grid report: chunking × system, span recall@5/10, time-IoU@10, seconds read@10, start error, nDCG@10 (human + transfer labels; PPI where audited), judged@10, with 95% intervals and paired tests against the baseline chunking",
    )
    .option("--baseline <name>", "the chunking the others are compared with (default: the first chunking with runs)")
    .addOption(new Option("--format <format>", "output format").choices(["table", "json", "csv"]).default("table"))
    .addOption(new Option("--gain <gain>", "nDCG gain").choices(["exponential", "linear"]).default("exponential"))
    .addOption(projectOption())
    .action(async (o: Opts) => {
      const [{ getChunkingReport }, { clearDashboardCache }] = await Promise.all([
        import("../../lib/dashboard/panels.ts"),
        import("../../lib/dashboard/data.ts"),
      ]);
      await withProject(o.project, async (db, p) => {
        try {
          const r = await getChunkingReport(db, p.id, { chunkingBaseline: o.baseline, gain: o.gain });
          if (o.format === "json") out(JSON.stringify(r, null, 2));
          else if (o.format === "csv") process.stdout.write(reportCsv(r));
          else out(reportTable(r).join("\n"));
        } finally {
          clearDashboardCache();
        }
      });
    });
}
