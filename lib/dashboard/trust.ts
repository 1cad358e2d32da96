/**
 * The Judge trust card: how far the chosen judge can be trusted, from the loaded data alone.
 * - Calibration (lib/stats/calibration.ts): the judge's confidence per pair against the final human
 *   label at grade ≥ 1 and ≥ 2 — for a run with several samples per pair the share of its graded
 *   samples at that grade or above, for a jury the share of its members' grades, for an imported
 *   judge the probabilities its file gave (`p_ge1`, `p_ge2`, lib/imports/labels.ts); Brier score, ECE
 *   (10 equal-width bins) and the reliability diagram's points, on the pairs with a human label.
 * - Ranking agreement (lib/stats/tau-ap.ts): Kendall τ and symmetric τ_AP between the systems'
 *   nDCG@10 means under the judge's labels and under the human labels, over all systems and over
 *   the human top half, on the questions that have both (each run on its own chunking's labels, as
 *   the systems table; only runs on a chunking the judge labelled), with intervals from a
 *   bootstrap over those questions.
 * - Jury vs members (lib/dashboard/trust-jury.ts).
 */
import { calibration, sampleConfidence, type TCalibration } from "../stats/calibration.ts";
import { rankingAgreement, type TRankingAgreement } from "../stats/tau-ap.ts";
import type { TDashboardData } from "./data.ts";
import {
  judgeLabelQrels,
  NO_HUMAN_HINT,
  NO_JUDGE_HINT,
  NO_RUNS_HINT,
  pickJudge,
  referenceQrels,
  type TQrels,
} from "./labels.ts";
import type { TJudgeRunInfo, TTrustInput } from "./load/trust.ts";
import { BOOTSTRAP, type TDashboardQuery } from "./options.ts";
import type { TRunRankings } from "./rankings.ts";
import { retrievalValues } from "./systems.ts";
import { juryComparison, type TJuryComparison } from "./trust-jury.ts";

export const RANKING_MEASURE = "ndcg_cut_10";
export const CALIBRATION_BINS = 10;

export type TTrustCalibration = {
  /** Where the confidence comes from: the run's samples, the jury's members, or the imported file's probabilities. */
  source: "samples" | "jury" | "imported";
  /** Samples per pair (a run), or members (a jury); 1 for imported probabilities. */
  per: number;
  ge1: TCalibration;
  ge2: TCalibration;
  bins: number;
};
export type TTrustRanking = TRankingAgreement & { measure: string; label: string };
export type TTrustPanel = {
  judge: string | null;
  run: TJudgeRunInfo | null;
  calibration: TTrustCalibration | null;
  calibrationNote: string | null;
  ranking: TTrustRanking | null;
  rankingNote: string | null;
  jury: TJuryComparison | null;
  empty: string | null;
};

const key = (queryId: number, chunkId: number) => `${queryId}:${chunkId}`;

/** Final human grade per pair. */
export function referenceGrades(data: TDashboardData): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of data.reference) out.set(key(r.queryId, r.chunkId), r.grade);
  return out;
}

/** Per pair with a human label, the judge's votes (samples or members' grades). */
function votesOf(
  data: TDashboardData,
  judge: string,
  input: TTrustInput,
): { source: "samples" | "jury"; per: number; votes: { grades: (number | null)[]; human: number }[] } | null {
  const human = referenceGrades(data);
  const samples = input.samples.get(judge);
  const run = input.runs.get(judge);
  if (samples && run) {
    const votes: { grades: (number | null)[]; human: number }[] = [];
    for (const s of samples) {
      const h = human.get(key(s.queryId, s.chunkId));
      if (h !== undefined) votes.push({ grades: s.grades, human: h });
    }
    return { source: "samples", per: run.samples, votes };
  }
  const members = input.juries.get(judge)?.filter((m) => data.judges.has(m));
  if (members && members.length >= 2) {
    const byPair = new Map<string, (number | null)[]>();
    members.forEach((m, i) => {
      for (const l of data.judges.get(m) ?? []) {
        const k = key(l.queryId, l.chunkId);
        if (!human.has(k)) continue;
        let g = byPair.get(k);
        if (!g) byPair.set(k, (g = new Array<number | null>(members.length).fill(null)));
        g[i] = l.grade;
      }
    });
    const inJury = new Set((data.judges.get(judge) ?? []).map((l) => key(l.queryId, l.chunkId)));
    const votes = [...byPair].filter(([k]) => inJury.has(k)).map(([k, grades]) => ({ grades, human: human.get(k)! }));
    return { source: "jury", per: members.length, votes };
  }
  return null;
}

/** The calibration of an imported judge's own probabilities, on its pairs with a final human label. */
function importedCalibration(data: TDashboardData, judge: string, input: TTrustInput): TTrustCalibration | null {
  const given = input.probabilities.get(judge);
  if (!given?.length) return null;
  const human = referenceGrades(data);
  const at = (t: 1 | 2) =>
    calibration(
      given.flatMap((p) => {
        const h = human.get(key(p.queryId, p.chunkId));
        const confidence = t === 1 ? p.pGe1 : p.pGe2;
        return h === undefined || confidence === null ? [] : [{ confidence, outcome: h >= t }];
      }),
      CALIBRATION_BINS,
    );
  return { source: "imported", per: 1, ge1: at(1), ge2: at(2), bins: CALIBRATION_BINS };
}

export function trustCalibration(
  data: TDashboardData,
  judge: string,
  input: TTrustInput,
): { calibration: TTrustCalibration | null; note: string | null } {
  const v = votesOf(data, judge, input);
  // A run's samples and a jury's members come first; a label set imported with probabilities has neither.
  const imported = v ? null : importedCalibration(data, judge, input);
  if (imported)
    return {
      calibration: imported,
      note:
        imported.ge1.n === 0
          ? "none of the judge's pairs with a probability of grade ≥ 1 has a final human label yet"
          : null,
    };
  if (!v)
    return {
      calibration: null,
      note: "no confidence per pair for this judge: run it with --samples 3 (or more, temperature above 0), make a jury (npx assessor judge combine), or import its labels as JSONL with p_ge1 and p_ge2",
    };
  const at = (t: number) =>
    calibration(
      v.votes.flatMap((p) => {
        const c = sampleConfidence(p.grades, t);
        return c === null ? [] : [{ confidence: c, outcome: p.human >= t }];
      }),
      CALIBRATION_BINS,
    );
  const c = { source: v.source, per: v.per, ge1: at(1), ge2: at(2), bins: CALIBRATION_BINS };
  return {
    calibration: c,
    note: c.ge1.n === 0 ? "none of the judge's pairs with a confidence has a final human label yet" : null,
  };
}

/** The questions in both label sets, as qrels (a question with human labels the judge did not label is left out). */
function shared(a: TQrels, b: TQrels): [TQrels, TQrels] {
  const x: TQrels = new Map();
  const y: TQrels = new Map();
  for (const [q, m] of a) {
    const o = b.get(q);
    if (o) {
      x.set(q, m);
      y.set(q, o);
    }
  }
  return [x, y];
}

export function trustRanking(
  data: TDashboardData,
  judge: string,
  rankings: Map<number, TRunRankings>,
  gain: TDashboardQuery["gain"],
): { ranking: TTrustRanking | null; note: string | null } {
  if (data.runs.length === 0) return { ranking: null, note: NO_RUNS_HINT };
  // Only the runs on a chunking the judge labelled: on another chunking every judge value would be 0.
  const chunkings = new Set<number>();
  for (const l of data.judges.get(judge) ?? []) {
    const c = data.chunks.get(l.chunkId);
    if (c) chunkings.add(c.chunkingId);
  }
  const kept = data.runs.flatMap((run, i) => (chunkings.has(run.chunkingId) ? [i] : []));
  if (kept.length < 2)
    return {
      ranking: null,
      note: `ranking agreement needs at least two runs on a chunking this judge labelled (${kept.length} of ${data.runs.length})`,
    };
  const [human, judged] = shared(referenceQrels(data, undefined), judgeLabelQrels(data, judge, undefined));
  if (human.size === 0) return { ranking: null, note: "no question has both human labels and this judge's labels" };
  const h = retrievalValues(data, "human", human, rankings, gain);
  const j = retrievalValues(data, "judge", judged, rankings, gain);
  const c = h.columns.findIndex((col) => col.id === RANKING_MEASURE);
  const r = rankingAgreement(
    kept.map((i) => data.runs[i].system),
    kept.map((i) => j.values[i][c]),
    kept.map((i) => h.values[i][c]),
    BOOTSTRAP,
  );
  return { ranking: { ...r, measure: RANKING_MEASURE, label: h.columns[c].label }, note: null };
}

export function trustPanel(
  data: TDashboardData,
  rankings: Map<number, TRunRankings>,
  input: TTrustInput,
  q: Pick<TDashboardQuery, "judge" | "gain">,
): TTrustPanel {
  const judge = pickJudge(data, q.judge);
  const none = { run: null, calibration: null, calibrationNote: null, ranking: null, rankingNote: null, jury: null };
  if (!judge) return { judge: null, ...none, empty: NO_JUDGE_HINT };
  if (data.reference.length === 0) return { judge, ...none, run: input.runs.get(judge) ?? null, empty: NO_HUMAN_HINT };
  const cal = trustCalibration(data, judge, input);
  const rank = trustRanking(data, judge, rankings, q.gain);
  return {
    judge,
    run: input.runs.get(judge) ?? null,
    calibration: cal.calibration,
    calibrationNote: cal.note,
    ranking: rank.ranking,
    rankingNote: rank.note,
    jury: juryComparison(data, judge, input),
    empty: null,
  };
}
