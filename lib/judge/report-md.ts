/** The trust report (lib/judge/report.ts) as Markdown: one section per part, figures to 3 decimals. */
import type { AgreementReport } from "../stats/agreement/report.ts";
import type { TCalibration } from "../stats/calibration.ts";
import type { TRankAgreement } from "../stats/tau-ap.ts";
import type { THashedReport } from "./report.ts";
import { confidenceWords } from "../dashboard/trust-words.ts";

const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined ? "–" : x.toFixed(d));
const iv = (i: { low: number; high: number } | null | undefined) => (i ? `[${f(i.low)}, ${f(i.high)}]` : "–");

/** A Markdown table's header line and the separator line under it (as many columns). */
const tableHead = (header: string) => [header, `|${"---|".repeat(header.split("|").length - 2)}`];
/** How the intervals were made: their level and the bootstrap resamples of questions. */
const bootstrapWords = (b: { level: number; resamples: number }) =>
  `${(b.level * 100).toFixed(0)}% intervals from ${b.resamples} bootstrap resamples of questions`;

/** The head of a table of kappaRows. */
const KAPPA_HEAD = tableHead("| | κ | κ linear | κ quadratic | α ordinal | n |");

function kappaRows(label: string, r: AgreementReport | null): string {
  if (!r) return `| ${label} | – | – | – | – | 0 |`;
  const b = r.ci.bootstrap;
  return `| ${label} | ${f(r.kappa.unweighted)} ${iv(b?.kappa_unweighted)} | ${f(r.kappa.linear)} ${iv(b?.kappa_linear)} | ${f(r.kappa.quadratic)} ${iv(b?.kappa_quadratic)} | ${f(r.alpha_ordinal)} ${iv(b?.alpha_ordinal)} | ${r.n} |`;
}

function calibrationRows(t: string, c: TCalibration): string[] {
  return [`| grade ≥ ${t} | ${c.n} | ${f(c.baseRate)} | ${f(c.brier)} | ${f(c.ece)} |`];
}

function rankRow(label: string, r: TRankAgreement): string {
  return `| ${label} | ${r.systems} | ${f(r.tau)} ${iv(r.tauInterval)} | ${f(r.tauAp)} ${iv(r.tauApInterval)} | ${f(r.tauApJudgeGivenHuman)} | ${f(r.tauApHumanGivenJudge)} |`;
}

export function reportMarkdown(r: THashedReport): string {
  const out: string[] = [];
  const p = (...lines: string[]) => out.push(...lines);
  p(`# Trust report: judge ${r.judge}`, "", `Project: ${r.project}. Kind: ${r.kind}.`, "");
  if (r.run)
    p(
      `Model: ${r.run.model}; template sha256: \`${r.run.templateSha256}\`; samples per pair: ${r.run.samples}; temperature: ${f(r.run.temperature, 2)}; run ${r.run.runId} (${r.run.status}).`,
      "",
    );
  const c = r.counts;
  p(
    "## Labels it rests on",
    "",
    `${c.judgeLabels} judge labels (grades 0/1/2/3: ${c.judgeByGrade.join("/")}); ${c.humanLabels} final human labels; ${c.paired} pairs labelled by both on ${c.questionsPaired} questions (human grades 0/1/2/3 there: ${c.humanByGradeOnPaired.join("/")}); ${c.humanPairs} items graded by two annotators.`,
    "",
    "## Agreement with the people, beside the people's own",
    "",
    `Cohen's kappa (unweighted, linear, quadratic) and Krippendorff's ordinal alpha, with ${bootstrapWords(r.settings)} (seed ${r.settings.seed}).`,
    "",
    ...KAPPA_HEAD,
    kappaRows("judge vs human", r.agreement),
    kappaRows("human vs human (ceiling)", r.ceiling),
    "",
    `Leniency (judge's mean grade − people's, on the paired items): ${f(r.leniency)}.`,
    "",
    "## Calibration",
    "",
  );
  if (r.calibration) {
    const cal = r.calibration;
    p(
      `Confidence per pair: ${confidenceWords(cal)}. Brier score (mean of (p − y)²) and expected calibration error (${cal.bins} equal-width bins, Σ n_b/N·|accuracy − confidence|) against the final human label.`,
      "",
      ...tableHead("| event | pairs | human base rate | Brier | ECE |"),
      ...calibrationRows("1", cal.ge1),
      ...calibrationRows("2", cal.ge2),
      "",
      "Reliability diagram (grade ≥ 1): bin, mean confidence, accuracy, pairs",
      "",
      ...cal.ge1.bins.map(
        (b) => `- [${f(b.low, 1)}, ${f(b.high, 1)}): ${f(b.confidence)} → ${f(b.accuracy)} (${b.count})`,
      ),
      "",
    );
  } else p(`${r.calibrationNote ?? "–"}`, "");
  p("## Test–retest", "");
  if (r.retest)
    p(
      `${r.retest.pairs} pairs with two or more graded samples; ${r.retest.unstable} (${f(r.retest.unstableShare)}) not all the same grade; mean κ between samples: linear ${f(r.retest.kappa.linear)}, quadratic ${f(r.retest.kappa.quadratic)} (${r.retest.samplePairs} sample pairs).`,
      "",
    );
  else p("Not measured: a run with --samples 2 or more gives it.", "");
  p("## Ranking of the systems", "");
  if (r.ranking) {
    const k = r.ranking;
    p(
      `${k.label} means per system under the judge's labels and under the human labels, on the ${k.queries} questions both labelled; Kendall τ (tau-b) and symmetric τ_AP (mean of both directions), ${bootstrapWords(k)}. Top half: ${k.top.names.join(", ")}.`,
      "",
      ...tableHead("| systems | n | Kendall τ | τ_AP (symmetric) | τ_AP (human as truth) | τ_AP (judge as truth) |"),
      rankRow("all", k.all),
      rankRow("top half by human score", k.top),
      "",
    );
  } else p(`${r.rankingNote ?? "–"}`, "");
  if (r.jury) {
    p(
      "## Jury and its members",
      "",
      `On the ${r.jury.pairs} pairs the jury and every member labelled that have a final human label.`,
      "",
      ...KAPPA_HEAD,
      ...r.jury.rows.map((row) => kappaRows(`${row.judge} (${row.role})`, row.report)),
      "",
    );
  }
  p("## Robustness", "");
  if (r.robustness)
    p(
      ...tableHead("| probe | pairs | changed | mean shift [95%] | linear κ vs people, before → after |"),
      ...r.robustness.probes.map(
        (x) =>
          `| ${x.kind} | ${x.pairs} | ${x.changed === null ? "–" : `${(100 * x.changed).toFixed(1)}%`} | ${f(x.meanShift)}${x.interval ? ` [${f(x.interval.low)}, ${f(x.interval.high)}]` : ""} | ${f(x.kappaBefore)} → ${f(x.kappaAfter)} |`,
      ),
      "",
    );
  else p(`${r.robustnessNote ?? "–"}`, "");
  p(`Report sha256: \`${r.sha256}\` (SHA-256 of the report's canonical JSON).`, "");
  return out.join("\n");
}
