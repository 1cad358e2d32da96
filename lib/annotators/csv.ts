import { safeCsv, type TCsvCell } from "../formats/csv-write.ts";
import type { TAgreementCell } from "../stats/annotators.ts";
import type { TClaimCell } from "../stats/annotators-answers.ts";
import type { TAnnotatorsReport } from "./report.ts";

/**
 * The annotators report as CSV (`assessor annotators report --format csv`, the Annotators card's
 * download): one row per annotator and comparison (the reference, the judge, each other
 * annotator), the annotator's own figures repeated on each of their rows; and one row per annotator
 * with hidden check items (compared_with "check items (settled reference)", the check_* columns).
 */
const seconds = (ms: number | null) => (ms === null ? null : ms / 1000);

/** The kappa columns (linear and quadratic, each with its interval) and the reason there are none. */
function kappaOnly(c: TAgreementCell | TClaimCell): TCsvCell[] {
  if ("reason" in c) return ["", "", "", "", "", "", c.reason];
  return [
    c.linear,
    c.linearInterval?.low,
    c.linearInterval?.high,
    c.quadratic,
    c.quadraticInterval?.low,
    c.quadraticInterval?.high,
    "",
  ];
}

function kappaCells(c: TAgreementCell | null): TCsvCell[] {
  if (!c) return ["", "", "", "", "", "", "", "", ""];
  return [c.n, c.questions, ...kappaOnly(c)];
}

export function annotatorsCsv(r: TAnnotatorsReport): string {
  const header = [
    "annotator",
    "compared_with",
    "n",
    "questions",
    "kappa_linear",
    "kappa_linear_low",
    "kappa_linear_high",
    "kappa_quadratic",
    "kappa_quadratic_low",
    "kappa_quadratic_high",
    "no_number_because",
    "leniency",
    "leniency_low",
    "leniency_high",
    "start_error_median_s",
    "start_error_n",
    "graded",
    "adjudicated",
    "overturned",
    "overturned_share",
    "time_n",
    "time_median_s",
    "time_p10_s",
    "fast_share",
    "fast_threshold_s",
    "model_bias",
    "model_bias_low",
    "model_bias_high",
    "model_reliability",
    "model_reliability_low",
    "model_reliability_high",
    "check_exact",
    "check_exact_low",
    "check_exact_high",
    "check_mean_signed_difference",
  ];
  const rows: TCsvCell[][] = [];
  const model = new Map((r.model?.annotators ?? []).map((m) => [m.annotator, m]));
  for (const a of r.annotators) {
    const m = model.get(a.annotator);
    const own: TCsvCell[] = [
      a.start.medianAbsError,
      a.start.n,
      a.graded,
      a.adjudication.adjudicated,
      a.adjudication.overturned,
      a.adjudication.share,
      a.time.n,
      seconds(a.time.medianMs),
      seconds(a.time.p10Ms),
      a.time.fastShare,
      a.time.fastMs / 1000,
      m?.bias,
      m?.biasInterval?.low,
      m?.biasInterval?.high,
      m?.reliability,
      m?.reliabilityInterval?.low,
      m?.reliabilityInterval?.high,
    ];
    const len = a.reference.leniency;
    rows.push([
      a.annotator,
      "reference",
      ...kappaCells(a.reference),
      len?.value,
      len?.interval?.low,
      len?.interval?.high,
      ...own,
    ]);
    if (a.judge) rows.push([a.annotator, `judge:${r.judge}`, ...kappaCells(a.judge), "", "", "", ...own]);
    for (const p of a.peers) rows.push([a.annotator, p.other, ...kappaCells(p), "", "", "", ...own]);
  }
  for (const a of r.answers) {
    const c = a.claims;
    const blank = new Array<TCsvCell>(header.length - 11).fill("");
    rows.push([a.annotator, "answer claims (reference)", c.n, "", ...kappaOnly(c), ...blank]);
    rows.push([a.annotator, "answer relevance (reference)", ...kappaCells(a.relevance), ...blank]);
  }
  // Hidden check items: n, questions, and the check columns (lib/stats/annotators-checks.ts).
  const kappaBlank = ["", "", "", "", "", ""];
  for (const c of r.checks) {
    const lead = [c.annotator, "check items (settled reference)", c.n, c.questions, ...kappaBlank];
    const check =
      "reason" in c ? ["", "", "", ""] : [c.exact, c.exactInterval.low, c.exactInterval.high, c.meanSignedDifference];
    const reason = "reason" in c ? c.reason : "";
    rows.push([
      ...lead,
      reason,
      ...new Array<TCsvCell>(header.length - lead.length - 1 - check.length).fill(""),
      ...check,
    ]);
  }
  // Every row as long as the header (the check columns are blank on the other rows).
  return safeCsv([header, ...rows.map((row) => [...row, ...new Array<TCsvCell>(header.length - row.length).fill("")])]);
}
