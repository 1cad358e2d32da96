/**
 * The trust report of one judge (`assessor judge report RUN --format md|json`, the Judge trust
 * card's download): what the judge is (model, template hash, samples), how far its labels agree
 * with the people's (the kappa family with query-bootstrap intervals, leniency) beside how far the
 * people agree with each other (the ceiling), how calibrated its confidence is, how stable its
 * samples are (test–retest), how well it ranks the systems, how it moves under probes
 * (robustness), and the label counts all of it rests on. Every figure comes from the dashboard's
 * own computations (lib/dashboard: loaded once, computed from what was loaded).
 *
 * The report's hash (`reportHash`) is the SHA-256 of its canonical JSON (keys sorted at every
 * level, no whitespace, the `sha256` field left out); the report holds no time, so the same labels
 * give the same hash on every database. `judge export --format qrels` carries it
 * (lib/judge/report-export.ts).
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { judgeBlock } from "../dashboard/agreement/judge.ts";
import { humanOverall } from "../dashboard/agreement/human.ts";
import { sliceFilter } from "../dashboard/agreement/slices.ts";
import { loadView } from "../dashboard/load/view.ts";
import type { TJudgeRunInfo } from "../dashboard/load/trust.ts";
import { BOOTSTRAP, RESAMPLING } from "../dashboard/options.ts";
import { trustCalibration, trustRanking, type TTrustCalibration, type TTrustRanking } from "../dashboard/trust.ts";
import { juryComparison, type TJuryComparison } from "../dashboard/trust-jury.ts";
import type { AgreementReport } from "../stats/agreement/report.ts";
import { findJudge } from "./label-sets.ts";
import { retest, type TRetest } from "./retest.ts";
import { robustness, type TRobustness } from "./report-robustness.ts";

export const REPORT_FORMAT = "assessor-judge-trust-report";
export const REPORT_VERSION = 1;

export type TJudgeReport = {
  format: typeof REPORT_FORMAT;
  version: typeof REPORT_VERSION;
  project: string;
  judge: string;
  /** run: a judge run of Assessor; jury: `judge combine`; labels: imported or transferred labels. */
  kind: "run" | "jury" | "labels";
  run: (Omit<TJudgeRunInfo, "target"> & { temperature: number | null }) | null;
  counts: {
    judgeLabels: number;
    humanLabels: number;
    /** Pairs labelled by both: what the agreement and calibration rest on. */
    paired: number;
    judgeByGrade: number[];
    humanByGradeOnPaired: number[];
    questionsPaired: number;
    /** Items graded by two annotators (the ceiling's pairs). */
    humanPairs: number;
  };
  agreement: AgreementReport | null;
  ceiling: AgreementReport | null;
  /** Judge's mean grade minus the people's on the paired items (from `agreement`). */
  leniency: number | null;
  calibration: TTrustCalibration | null;
  calibrationNote: string | null;
  retest: TRetest | null;
  ranking: TTrustRanking | null;
  rankingNote: string | null;
  jury: TJuryComparison | null;
  robustness: TRobustness | null;
  robustnessNote: string | null;
  settings: { resamples: number; seed: number; level: number; gain: "exponential" | "linear"; bins: number };
};
export type THashedReport = TJudgeReport & { sha256: string };

/** JSON with every object's keys sorted, no whitespace (the hashed form). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

export function reportHash(report: TJudgeReport): string {
  const { sha256: _drop, ...rest } = report as THashedReport;
  return createHash("sha256").update(canonicalJson(rest)).digest("hex");
}

const byGrade = (grades: Iterable<number>) => {
  const out = [0, 0, 0, 0];
  for (const g of grades) out[g]++;
  return out;
};

export async function judgeReport(
  db: Db,
  projectId: number,
  ref: string,
  opts: { gain?: "exponential" | "linear" } = {},
): Promise<THashedReport> {
  const found = await findJudge(db, projectId, ref);
  if (found.run?.target === "answers")
    throw new AppError(
      "bad_input",
      `run ${found.run.id} (${found.run.judge}) judged generated answers: a trust report covers judges of question–chunk pairs`,
    );
  const judge = found.run ? found.run.judge : found.labelSet.judge;
  const gain = opts.gain ?? "exponential";
  const view = await loadView(db, projectId, { rankings: true, trust: true });
  const { data } = view;
  const input = view.trust!;
  if (!data.judges.has(judge))
    throw new AppError("not_found", `judge "${judge}" has no labels on accepted questions yet: nothing to report`);
  const all = sliceFilter(data, undefined, undefined);
  const block = judgeBlock(data, judge, all, RESAMPLING.resamples);
  const ceiling = humanOverall(data, all, RESAMPLING.resamples);
  const labels = data.judges.get(judge)!;
  const human = new Map<string, number>();
  for (const r of data.reference) human.set(`${r.queryId}:${r.chunkId}`, r.grade);
  const paired = labels.filter((l) => human.has(`${l.queryId}:${l.chunkId}`));
  const info = input.runs.get(judge);
  const samples = input.samples.get(judge);
  const cal = trustCalibration(data, judge, input);
  const rank = trustRanking(data, judge, view.rankings, gain);
  const robust = robustness(data, judge);
  const report: TJudgeReport = {
    format: REPORT_FORMAT,
    version: REPORT_VERSION,
    project: data.project.name,
    judge,
    kind: info ? "run" : input.juries.has(judge) ? "jury" : "labels",
    run: info
      ? {
          runId: info.runId,
          model: info.model,
          templateSha256: info.templateSha256,
          samples: info.samples,
          status: info.status,
          temperature: found.run ? temperatureOf(found.run.params) : null,
        }
      : null,
    counts: {
      judgeLabels: labels.length,
      humanLabels: data.reference.length,
      paired: paired.length,
      judgeByGrade: byGrade(labels.map((l) => l.grade)),
      humanByGradeOnPaired: byGrade(paired.map((l) => human.get(`${l.queryId}:${l.chunkId}`)!)),
      questionsPaired: new Set(paired.map((l) => l.queryId)).size,
      humanPairs: ceiling.report?.n ?? 0,
    },
    agreement: block.report,
    ceiling: ceiling.report,
    leniency: block.report?.leniency ?? null,
    calibration: cal.calibration,
    calibrationNote: cal.note,
    retest: samples && info ? retest(samples, info.samples) : null,
    ranking: rank.ranking,
    rankingNote: rank.note,
    jury: juryComparison(data, judge, input),
    robustness: robust.robustness,
    robustnessNote: robust.note,
    settings: { ...BOOTSTRAP, gain, bins: 10 },
  };
  return { ...report, sha256: reportHash(report) };
}

function temperatureOf(params: string): number | null {
  const t = (JSON.parse(params) as { temperature?: unknown }).temperature;
  return typeof t === "number" ? t : null;
}
