import type { TDashboardData } from "./data.ts";
import { NO_HUMAN_HINT, pickJudge, tagFilter } from "./labels.ts";
import type { TDashboardQuery } from "./options.ts";

/**
 * Calibration status, after the evaluation plan: how many items have a final human label (agreed,
 * adjudicated or imported) against the project's calibration target (150 by default, after ARES),
 * how many of them the chosen judge also labelled (what the judge-vs-human figures rest on), and
 * the count per grade with a warning below the project's minimum per grade (10 by default); the
 * same per query tag. `suggestedSample` is how many more items to sample for calibration.
 */
export type TGradeCounts = [number, number, number, number];
export type TCalibrationRow = { tag: string | null; labelled: number; withJudge: number; perGrade: TGradeCounts; thinGrades: number[] };
export type TCalibrationPanel = {
  target: number;
  minPerGrade: number;
  judge: string | null;
  overall: TCalibrationRow;
  byTag: TCalibrationRow[];
  /** Items to sample so that the total reaches the target and thin grades can fill up. */
  suggestedSample: number;
  /** Unassigned pool items that a sample can draw from. */
  unassignedPoolItems: number;
  empty: string | null;
};

function row(data: TDashboardData, tag: string | null, judgeKeys: Set<string> | null, minPerGrade: number): TCalibrationRow {
  const keep = tagFilter(data, tag ?? undefined);
  const perGrade: TGradeCounts = [0, 0, 0, 0];
  let labelled = 0;
  let withJudge = 0;
  for (const r of data.reference) {
    if (!keep(r.queryId)) continue;
    labelled++;
    if (r.grade >= 0 && r.grade <= 3) perGrade[r.grade]++;
    if (judgeKeys?.has(`${r.queryId}:${r.chunkId}`)) withJudge++;
  }
  return { tag, labelled, withJudge, perGrade, thinGrades: perGrade.flatMap((n, g) => (n < minPerGrade ? [g] : [])) };
}

export function calibrationPanel(data: TDashboardData, opts: Pick<TDashboardQuery, "judge">): TCalibrationPanel {
  const { calibrationTarget: target, minPerGrade } = data.project;
  const judge = pickJudge(data, opts.judge);
  const judgeKeys = judge ? new Set((data.judges.get(judge) ?? []).map((l) => `${l.queryId}:${l.chunkId}`)) : null;
  const overall = row(data, null, judgeKeys, minPerGrade);
  const byTag = data.tags.map((t) => row(data, t, judgeKeys, minPerGrade));
  const shortOfTarget = Math.max(0, target - overall.labelled);
  // Sampling is stratified by judge grade (lib/assignment/sample.ts), so a sample of 4 × the
  // largest per-grade shortfall gives each thin grade that many more candidates when they exist.
  const gradeShortfall = Math.max(0, ...overall.perGrade.map((n) => minPerGrade - n));
  let assignedItems = 0;
  for (const n of data.assigned.values()) if (n > 0) assignedItems++;
  const unassignedPoolItems = data.poolItems.size - assignedItems;
  return {
    target,
    minPerGrade,
    judge,
    overall,
    byTag,
    suggestedSample: Math.min(unassignedPoolItems, Math.max(shortOfTarget, 4 * gradeShortfall)),
    unassignedPoolItems,
    empty: data.reference.length === 0 ? NO_HUMAN_HINT : null,
  };
}
