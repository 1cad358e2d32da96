import type { Db } from "../db/client.ts";
import { agreementPanel, breakdownsPanel, humanPanel } from "./agreement.ts";
import { calibrationPanel } from "./calibration.ts";
import type { TDashboardData } from "./data.ts";
import type { TDashboardQuery } from "./options.ts";
import { progressPanel } from "./progress.ts";
import { systemsPanel } from "./systems.ts";
import { metaPanel } from "./meta.ts";
import { ppiPanel } from "./ppi.ts";
import { chunkingReport, type TChunkingReport } from "./chunking-report.ts";
import { generationPanel } from "./generation.ts";
import { loadView, type TNeeds, type TView } from "./load/view.ts";
import { retestPanel } from "./retest.ts";
import { trustPanel } from "./trust.ts";

/**
 * The dashboard's panels as the route handlers serve them. Each one is a load (lib/dashboard/load/view.ts:
 * the project's data once per label-set version, and the parts the panel needs) followed by a
 * computation from what was loaded, which touches no database (`PANEL_COMPUTE`); the result is
 * kept in the version's cache object per options, then served from memory until a label, run or
 * setting changes.
 */
export async function panelOf<T>(
  db: Db,
  projectId: number,
  name: string,
  key: readonly unknown[],
  needs: TNeeds,
  compute: (view: TView) => T,
): Promise<T> {
  const view = await loadView(db, projectId, needs);
  return view.cache.memo(JSON.stringify([name, ...key]), () => compute(view));
}

/** A panel computed from the loaded data alone (lib/dashboard/warm.ts' test asks the cache this way). */
export async function panel<T>(
  db: Db,
  projectId: number,
  name: string,
  key: readonly unknown[],
  compute: (d: TDashboardData) => T | Promise<T>,
): Promise<T> {
  return await panelOf(db, projectId, name, key, {}, (v) => Promise.resolve(compute(v.data)));
}

type TChunkingOptions = Pick<TDashboardQuery, "gain" | "chunkingBaseline">;

/**
 * Every panel's computation from a loaded view and the viewer's options: what it needs loaded,
 * the options its result depends on (the memo's key), and the computation itself.
 */
export const PANEL_COMPUTE = {
  meta: { needs: {}, key: () => [], compute: (v: TView) => metaPanel(v.data) },
  agreement: {
    needs: {},
    key: (q: TDashboardQuery) => [q.tag, q.system],
    compute: (v: TView, q: TDashboardQuery) => agreementPanel(v.data, q),
  },
  human: {
    needs: {},
    key: (q: TDashboardQuery) => [q.tag, q.system],
    compute: (v: TView, q: TDashboardQuery) => humanPanel(v.data, q),
  },
  breakdowns: {
    needs: {},
    key: (q: TDashboardQuery) => [q.judge],
    compute: (v: TView, q: TDashboardQuery) => breakdownsPanel(v.data, q),
  },
  calibration: {
    needs: {},
    key: (q: TDashboardQuery) => [q.judge],
    compute: (v: TView, q: TDashboardQuery) => calibrationPanel(v.data, q),
  },
  progress: { needs: {}, key: () => [], compute: (v: TView) => progressPanel(v.data) },
  systems: {
    needs: { rankings: true },
    key: (q: TDashboardQuery) => [q.source, q.judge, q.tag, q.baseline, q.gain],
    compute: (v: TView, q: TDashboardQuery) => systemsPanel(v.data, v.rankings, q),
  },
  ppi: {
    needs: { rankings: true },
    key: (q: TDashboardQuery) => [q.judge, q.tag, q.baseline, q.gain, q.delta, q.halfWidth],
    compute: (v: TView, q: TDashboardQuery) => ppiPanel(v.data, v.rankings, q),
  },
  chunkings: {
    needs: { rankings: true },
    key: (q: TChunkingOptions) => [q.chunkingBaseline, q.gain],
    compute: (v: TView, q: TChunkingOptions): TChunkingReport =>
      chunkingReport(v.data, v.rankings, v.chunkings, { baseline: q.chunkingBaseline, gain: q.gain }),
  },
  generation: {
    needs: { generation: true },
    key: null,
    compute: (v: TView, q: TDashboardQuery) =>
      generationPanel(v, { baseline: q.answerBaseline, judge: q.answerJudge, gain: q.gain }),
  },
  retest: { needs: { retest: true }, key: null, compute: (v: TView) => retestPanel(v.retest) },
  trust: {
    needs: { rankings: true, trust: true },
    key: (q: TDashboardQuery) => [q.judge, q.gain],
    compute: (v: TView, q: TDashboardQuery) => trustPanel(v.data, v.rankings, v.trust!, q),
  },
} as const;

type TCompute = typeof PANEL_COMPUTE;

/**
 * One panel: loaded, then computed (memoised in the version's cache object unless `key` is null:
 * the Generation section keeps its results with its own versions, retest reads fresh rows).
 */
function serve<N extends keyof TCompute>(
  db: Db,
  projectId: number,
  name: N,
  q: Parameters<TCompute[N]["compute"]>[1],
): Promise<ReturnType<TCompute[N]["compute"]>> {
  const p = PANEL_COMPUTE[name] as {
    needs: TNeeds;
    key: ((q: unknown) => readonly unknown[]) | null;
    compute: (v: TView, q: unknown) => ReturnType<TCompute[N]["compute"]>;
  };
  const key = p.key;
  if (!key) return loadView(db, projectId, p.needs).then((v) => p.compute(v, q));
  return panelOf(db, projectId, name, key(q), p.needs, (v) => p.compute(v, q));
}

export const getMeta = (db: Db, projectId: number) => serve(db, projectId, "meta", undefined);
export const getAgreement = (db: Db, projectId: number, q: TDashboardQuery) => serve(db, projectId, "agreement", q);
export const getHuman = (db: Db, projectId: number, q: TDashboardQuery) => serve(db, projectId, "human", q);
export const getBreakdowns = (db: Db, projectId: number, q: TDashboardQuery) => serve(db, projectId, "breakdowns", q);
export const getCalibration = (db: Db, projectId: number, q: TDashboardQuery) => serve(db, projectId, "calibration", q);
export const getProgress = (db: Db, projectId: number) => serve(db, projectId, "progress", undefined);
export const getSystems = (db: Db, projectId: number, q: TDashboardQuery) => serve(db, projectId, "systems", q);
export const getPpi = (db: Db, projectId: number, q: TDashboardQuery) => serve(db, projectId, "ppi", q);
/** The chunking grid report (lib/dashboard/chunking-report.ts): the card, and `assessor chunking report`. */
export const getChunkingReport = (db: Db, projectId: number, q: TChunkingOptions) =>
  serve(db, projectId, "chunkings", q);
/** The Generation section (lib/dashboard/generation.ts; its loading: lib/dashboard/load/answers.ts). */
export const getGeneration = (db: Db, projectId: number, q: TDashboardQuery) => serve(db, projectId, "generation", q);
/** The retest panel (lib/dashboard/retest.ts). */
export const getRetest = (db: Db, projectId: number) => serve(db, projectId, "retest", undefined);

/** The Judge trust card (lib/dashboard/trust.ts): calibration, ranking agreement, a jury beside its members. */
export const getTrust = (db: Db, projectId: number, q: TDashboardQuery) => serve(db, projectId, "trust", q);

/** Every panel for one view, as the page's first screen needs them (used by the benchmark; `ppi: false` leaves that panel out, to time it alone). */
export async function allPanels(db: Db, projectId: number, q: TDashboardQuery, opts: { ppi?: boolean } = {}) {
  const [meta, agreement, human, breakdowns, calibration, progress, systems, ppi] = await Promise.all([
    getMeta(db, projectId),
    getAgreement(db, projectId, q),
    getHuman(db, projectId, q),
    getBreakdowns(db, projectId, q),
    getCalibration(db, projectId, q),
    getProgress(db, projectId),
    getSystems(db, projectId, q),
    opts.ppi === false ? null : getPpi(db, projectId, q),
  ]);
  return { meta, agreement, human, breakdowns, calibration, progress, systems, ppi };
}
