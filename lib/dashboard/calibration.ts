import { completeQuestions } from "./complete.ts";
import type { TDashboardData, TLabel } from "./data.ts";
import { NO_HUMAN_HINT, pickJudge } from "./labels.ts";
import type { TDashboardQuery } from "./options.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

/**
 * Calibration status, after the evaluation plan: how many items have a final human label (agreed,
 * adjudicated or imported) against the project's calibration target (150 by default, after ARES),
 * how many of them the chosen judge also labelled (what the judge-vs-human figures rest on), and
 * the count per grade with a warning below the project's minimum per grade (10 by default); the
 * same per query tag, and the questions that are completely human-labelled (PPI's calibration
 * questions). `suggestedSample` is how many more items to sample for calibration.
 */
export type TGradeCounts = [number, number, number, number];
/** `questions`: questions in the row; `completeQuestions`: those whose every pool item has a final human label (what PPI needs, lib/dashboard/complete.ts). */
export type TCalibrationRow = {
  tag: string | null;
  labelled: number;
  withJudge: number;
  perGrade: TGradeCounts;
  thinGrades: number[];
  questions: number;
  completeQuestions: number;
};
export type TCalibrationPanel = {
  target: number;
  minPerGrade: number;
  judge: string | null;
  overall: TCalibrationRow;
  byTag: TCalibrationRow[];
  /** Items to sample so that the total reaches the target and the thin grades (overall, and of the thinnest tag) can fill up. */
  suggestedSample: number;
  /** Pool items in the stage "unassigned" (no assignment, no imported label): `assessor status`'s count (lib/labels/stage.ts). */
  unassignedPoolItems: number;
  /** Pool items without an assignment that carry an imported label (stage "imported"): a sample may draw them too, to re-grade. */
  regradablePoolItems: number;
  /** What to do next, from the counts (calibrationAdvice). */
  advice: TCalibrationAdvice;
  empty: string | null;
};

/**
 * The next step the counts call for: "done" (target reached, every grade at its minimum);
 * otherwise (the target or a grade's minimum overall not reached) "reopen" when the lead closed grading (nothing can be sampled
 * or graded until then), else "sample" while the pool has unassigned items, "finish" when everything is assigned
 * but items still wait for grades or adjudication, "deepen" when every pool item is labelled.
 */
export type TCalibrationAdvice = { action: "done" | "reopen" | "sample" | "finish" | "deepen"; text: string };

export function calibrationAdvice(c: {
  target: number;
  minPerGrade: number;
  labelled: number;
  thinGrades: number[];
  suggestedSample: number;
  unassigned: number;
  regradable?: number;
  waiting: number;
  awaitingAdjudication: number;
  gradingClosed?: boolean;
}): TCalibrationAdvice {
  const why: string[] = [];
  if (c.labelled < c.target) why.push(`${c.labelled} of the ${c.target} human labels the target asks for`);
  if (c.thinGrades.length) why.push(`fewer than ${c.minPerGrade} examples of grade ${c.thinGrades.join(", ")}`);
  if (why.length === 0)
    return {
      action: "done",
      text: `Calibration target reached: ${c.labelled} human labels, at least ${c.minPerGrade} of every grade.`,
    };
  const reason = why.join("; ");
  if (c.gradingClosed) {
    const meanwhile =
      c.awaitingAdjudication > 0
        ? `; meanwhile, adjudicate the ${c.awaitingAdjudication} disagreement${c.awaitingAdjudication === 1 ? "" : "s"}`
        : "";
    return {
      action: "reopen",
      text: `${reason[0].toUpperCase()}${reason.slice(1)}. Grading is closed in this project: reopen it (npx assessor project reopen-grading, or Grading on the project page) to sample or finish items${meanwhile}.`,
    };
  }
  const regradable = c.regradable ?? 0;
  if (c.unassigned + regradable > 0) {
    const more = regradable > 0 ? `, ${regradable} more with an imported label to re-grade` : "";
    return {
      action: "sample",
      text: `${reason[0].toUpperCase()}${reason.slice(1)}: sample ${c.suggestedSample} more item${c.suggestedSample === 1 ? "" : "s"} (${c.unassigned} unassigned in the pool${more}).`,
    };
  }
  if (c.waiting > 0 || c.awaitingAdjudication > 0) {
    const work = [
      c.waiting > 0
        ? `finish the ${c.waiting} assigned item${c.waiting === 1 ? "" : "s"} still waiting for grades`
        : null,
      c.awaitingAdjudication > 0
        ? `adjudicate the ${c.awaitingAdjudication} disagreement${c.awaitingAdjudication === 1 ? "" : "s"}`
        : null,
    ]
      .filter(Boolean)
      .join(" and ");
    return {
      action: "finish",
      text: `${reason[0].toUpperCase()}${reason.slice(1)}. Every pool item is assigned: ${work} first; if that is not enough, deepen the pool (a larger depth) to have items to sample.`,
    };
  }
  return {
    action: "deepen",
    text: `${reason[0].toUpperCase()}${reason.slice(1)}. Every pool item is labelled: deepen the pool (npx assessor pool --depth K with a larger K, or Pool on the project page) to have items to sample.`,
  };
}

function emptyRow(tag: string | null): TCalibrationRow {
  return { tag, labelled: 0, withJudge: 0, perGrade: [0, 0, 0, 0], thinGrades: [], questions: 0, completeQuestions: 0 };
}

/** The overall row and one row per tag, in one pass over the final human labels. */
function rows(
  data: TDashboardData,
  judgeKeys: Map<number, Set<number>> | null,
  minPerGrade: number,
): { overall: TCalibrationRow; byTag: TCalibrationRow[] } {
  const overall = emptyRow(null);
  const byTag = new Map(data.tags.map((t) => [t, emptyRow(t)]));
  // The rows a query's labels count in (overall and each of its distinct tags), once per query.
  const rowsOf = new Map<number, TCalibrationRow[]>();
  const targets = (queryId: number) => {
    let list = rowsOf.get(queryId);
    if (!list)
      rowsOf.set(
        queryId,
        (list = [overall, ...[...new Set(data.queries.get(queryId)?.tags ?? [])].map((t) => byTag.get(t)!)]),
      );
    return list;
  };
  for (const r of data.reference) {
    const withJudge = judgeKeys?.get(r.queryId)?.has(r.chunkId) ?? false;
    for (const row of targets(r.queryId)) {
      row.labelled++;
      if (r.grade >= 0 && r.grade <= 3) row.perGrade[r.grade]++;
      if (withJudge) row.withJudge++;
    }
  }
  const complete = completeQuestions(data);
  for (const queryId of data.queries.keys()) {
    for (const row of targets(queryId)) {
      row.questions++;
      if (complete.has(queryId)) row.completeQuestions++;
    }
  }
  for (const row of [overall, ...byTag.values()])
    row.thinGrades = row.perGrade.flatMap((n, g) => (n < minPerGrade ? [g] : []));
  return { overall, byTag: [...byTag.values()] };
}

/** A judge's labelled (query, chunk) pairs, kept while its labels are the same array (label changes elsewhere reuse it). */
const judgeKeys = (data: TCacheHolder) =>
  cacheOf(data).carried("calibration.judgeKeys", () => new WeakMap<readonly TLabel[], Map<number, Set<number>>>());
function keysOf(data: TCacheHolder, labels: readonly TLabel[]): Map<number, Set<number>> {
  let keys = judgeKeys(data).get(labels);
  if (!keys) {
    keys = new Map();
    for (const l of labels) {
      let chunks = keys.get(l.queryId);
      if (!chunks) keys.set(l.queryId, (chunks = new Set()));
      chunks.add(l.chunkId);
    }
    judgeKeys(data).set(labels, keys);
  }
  return keys;
}

export function calibrationPanel(data: TDashboardData, opts: Pick<TDashboardQuery, "judge">): TCalibrationPanel {
  const { calibrationTarget: target, minPerGrade } = data.project;
  const judge = pickJudge(data, opts.judge);
  const { overall, byTag } = rows(data, judge ? keysOf(data, data.judges.get(judge) ?? []) : null, minPerGrade);
  const shortOfTarget = Math.max(0, target - overall.labelled);
  // The sample fills thin cells first (lib/assignment/sample.ts); an item counts in its grade
  // overall and under each of its query's tags at once, so the thin grades overall, or those of
  // the thinnest tag, need at least this many items (judge grades only predict the human ones).
  const deficit = (row: TCalibrationRow) => row.perGrade.reduce((sum, n) => sum + Math.max(0, minPerGrade - n), 0);
  const gradeShortfall = Math.max(deficit(overall), ...byTag.map(deficit));
  let assignedItems = 0;
  for (const n of data.assigned.values()) if (n > 0) assignedItems++;
  // The stage counts `assessor status` prints (lib/labels/stage.ts): a pool item with an imported
  // label is "imported", not "unassigned"; the sample (routes.ts sampleForCalibration) may still
  // draw it, to re-grade, so it is counted apart.
  const unassignedPoolItems = data.stages.unassigned;
  const regradablePoolItems = Math.max(0, data.poolItems.size - assignedItems - unassignedPoolItems);
  const suggestedSample = Math.min(unassignedPoolItems + regradablePoolItems, Math.max(shortOfTarget, gradeShortfall));
  const advice = calibrationAdvice({
    target,
    minPerGrade,
    labelled: overall.labelled,
    thinGrades: overall.thinGrades,
    suggestedSample,
    unassigned: unassignedPoolItems,
    regradable: regradablePoolItems,
    waiting: data.stages.assigned,
    awaitingAdjudication: data.stages.awaiting_adjudication,
    gradingClosed: data.project.gradingClosed,
  });
  return {
    target,
    minPerGrade,
    judge,
    overall,
    byTag,
    suggestedSample,
    unassignedPoolItems,
    regradablePoolItems,
    advice,
    empty: data.reference.length === 0 ? NO_HUMAN_HINT : null,
  };
}
