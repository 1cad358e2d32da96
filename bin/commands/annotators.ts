import { Option, type Command } from "commander";
import type { TAnnotatorsReport } from "../../lib/annotators/report.ts";
import type { TAgreementCell } from "../../lib/stats/annotators.ts";
import { annotatorsCsv } from "../../lib/annotators/csv.ts";
import { decimalOption, fail, out, projectOption, withProject } from "../context.ts";

/**
 * `assessor annotators report [--judge NAME] [--fast-seconds S] [--names] [--format table|json|csv]`:
 * each annotator's agreement with the reference (their own grade left out), with each other
 * annotator and with a judge; leniency; corrected-start error; share overturned in adjudication;
 * time per item (lib/stats/annotators.ts defines every number).
 */
type Opts = {
  judge?: string;
  fastSeconds?: string;
  names?: boolean;
  format: "table" | "json" | "csv";
  project?: string;
};

const f3 = (v: number | null | undefined) => (v === null || v === undefined ? "–" : v.toFixed(3));
const ci = (i: { low: number; high: number } | null | undefined) => (i ? `[${f3(i.low)}, ${f3(i.high)}]` : "");
const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

function kappaText(c: TAgreementCell | null): string {
  if (!c) return "";
  if ("reason" in c) return `no number (${c.reason})`;
  return `linear ${f3(c.linear)} ${ci(c.linearInterval)}, quadratic ${f3(c.quadratic)} ${ci(c.quadraticInterval)}, n=${c.n}`;
}

export function annotatorsTable(r: TAnnotatorsReport): string[] {
  if (r.annotators.length === 0) return ["No human grades yet: nothing to report."];
  const lines: string[] = [];
  for (const a of r.annotators) {
    const len = a.reference.leniency;
    lines.push(`${a.annotator}: ${a.graded} graded`);
    lines.push(`  vs reference (own grade left out): ${kappaText(a.reference)}`);
    if (len)
      lines.push(`  leniency ${len.value >= 0 ? "+" : ""}${f3(len.value)} ${ci(len.interval)} (grade − reference)`);
    if (a.judge) lines.push(`  vs judge ${r.judge}: ${kappaText(a.judge)}`);
    for (const p of a.peers) lines.push(`  vs ${p.other}: ${kappaText(p)}`);
    lines.push(
      `  start error: ${a.start.n ? `median ${f3(a.start.medianAbsError)} s over ${a.start.n}` : "–"}; overturned in adjudication: ${a.adjudication.overturned} of ${a.adjudication.adjudicated} adjudicated (${a.graded ? ((100 * a.adjudication.overturned) / a.graded).toFixed(1) : "–"}% of graded)`,
    );
    lines.push(
      `  time per item: ${a.time.n ? `median ${f3(seconds(a.time.medianMs))} s, 10th percentile ${f3(seconds(a.time.p10Ms))} s, ${(100 * (a.time.fastShare ?? 0)).toFixed(1)}% at or under ${r.fastMs / 1000} s` : "–"}`,
    );
  }
  if (r.answers.length) {
    lines.push(
      "",
      "Answer labels (claims s/p/n/x as n < p < s with x as n; relevance 0–3), own labels left out of the reference:",
    );
    for (const a of r.answers) {
      const c = a.claims;
      lines.push(
        `  ${a.annotator}: ${a.labelled} answers; claims ${"reason" in c ? `no number (${c.reason})` : `linear ${f3(c.linear)} ${ci(c.linearInterval)}, quadratic ${f3(c.quadratic)} ${ci(c.quadraticInterval)}, n=${c.n}`}; relevance ${kappaText(a.relevance)}; overturned ${a.adjudication.overturned} of ${a.adjudication.adjudicated} adjudicated; median ${a.time.n ? `${f3(seconds(a.time.medianMs))} s` : "–"} per answer`,
      );
    }
  }
  if (r.model) {
    lines.push(
      "",
      `Annotator-ability model: ${r.model.method}; ${r.model.items} items, ${r.model.iterations} EM steps.`,
      `  intervals: ${r.model.intervals}`,
    );
    for (const m of r.model.annotators)
      lines.push(
        `  ${m.annotator}: bias ${m.bias >= 0 ? "+" : ""}${f3(m.bias)}${m.biasInterval ? ` ${ci(m.biasInterval)}` : ""}, reliability ${f3(m.reliability)}${m.reliabilityInterval ? ` ${ci(m.reliabilityInterval)}` : ""}`,
      );
    lines.push(`  the model's item grades vs the reference: ${kappaText(r.model.vsReference)}`);
    lines.push(`  on adjudicated items only: ${kappaText(r.model.vsAdjudicated)}`);
  }
  if (r.checks.length) {
    lines.push("", "Hidden check items (settled reference; grade − reference):");
    for (const c of r.checks)
      lines.push(
        "reason" in c
          ? `  ${c.annotator}: no number (${c.reason})`
          : `  ${c.annotator}: exact ${f3(c.exact)} ${ci(c.exactInterval)} (Wilson 95%), mean signed difference ${c.meanSignedDifference >= 0 ? "+" : ""}${f3(c.meanSignedDifference)}, n=${c.n} on ${c.questions} questions`,
      );
  }
  lines.push(
    "",
    "[low, high]: 95% percentile bootstrap over questions (1000 resamples, seed 1). Fewer than 10 pairs or 3 questions: no number.",
  );
  return lines;
}

export function registerAnnotators(program: Command): void {
  const group = program.command("annotators").description("the quality of each annotator's grades");
  group
    .command("report")
    .description(
      "per annotator: weighted kappa against the reference (their own grade left out), each other annotator and a judge; leniency; start error; share overturned in adjudication; time per item",
    )
    .option("--judge <name>", "also compare with this judge's labels (a run's judge name or an imported label set)")
    .option("--fast-seconds <s>", "count grades given in at most this many seconds (default 3)")
    .option("--names", "name annotators by e-mail (default: a pseudonymous id per project)")
    .addOption(new Option("--format <format>", "output format").choices(["table", "json", "csv"]).default("table"))
    .addOption(projectOption())
    .action(async (o: Opts) => {
      const fastSeconds = decimalOption("--fast-seconds", o.fastSeconds);
      if (fastSeconds !== undefined && fastSeconds < 0)
        fail(`--fast-seconds: expected 0 or more seconds, got "${o.fastSeconds}"`);
      const { annotatorsReport } = await import("../../lib/annotators/report.ts");
      const r = await withProject(o.project, (db, p) =>
        annotatorsReport(db, p.id, {
          judge: o.judge,
          names: o.names,
          fastMs: fastSeconds === undefined ? undefined : fastSeconds * 1000,
        }),
      );
      if (o.format === "json") out(JSON.stringify(r, null, 2));
      else if (o.format === "csv") process.stdout.write(annotatorsCsv(r));
      else for (const l of annotatorsTable(r)) out(l);
    });
}
