import type { Db } from "../db/client.ts";
import { agreementPanel, breakdownsPanel, humanPanel } from "./agreement.ts";
import { calibrationPanel } from "./calibration.ts";
import { dashboardData } from "./data.ts";
import type { TDashboardQuery } from "./options.ts";
import { progressPanel } from "./progress.ts";
import { runRankings } from "./rankings.ts";
import { systemsPanel } from "./systems.ts";
import { metaPanel } from "./meta.ts";
import { loadTransferPools } from "./judges.ts";
import { ppiPanel } from "./ppi.ts";
import { chunkingReport, type TChunkingReport } from "./chunking-report.ts";
import { generationPanel } from "./generation.ts";

/**
 * The dashboard's panels as the route handlers serve them: the project's data is loaded once per
 * label-set version (lib/dashboard/data.ts) and each panel is computed once per version and
 * options, then served from memory until a label, run or setting changes.
 */
export async function panel<T>(
  db: Db,
  projectId: number,
  name: string,
  key: readonly unknown[],
  compute: (d: Awaited<ReturnType<typeof dashboardData>>["data"]) => T | Promise<T>,
): Promise<T> {
  const { data, memo } = await dashboardData(db, projectId);
  await loadTransferPools(db, data);
  return memo(JSON.stringify([name, ...key]), () => Promise.resolve(compute(data)));
}

export const getMeta = (db: Db, projectId: number) => panel(db, projectId, "meta", [], (d) => metaPanel(d));

export const getAgreement = (db: Db, projectId: number, q: TDashboardQuery) =>
  panel(db, projectId, "agreement", [q.tag, q.system], (d) => agreementPanel(d, q));

export const getHuman = (db: Db, projectId: number, q: TDashboardQuery) =>
  panel(db, projectId, "human", [q.tag, q.system], (d) => humanPanel(d, q));

export const getBreakdowns = (db: Db, projectId: number, q: TDashboardQuery) =>
  panel(db, projectId, "breakdowns", [q.judge], (d) => breakdownsPanel(d, q));

export const getCalibration = (db: Db, projectId: number, q: TDashboardQuery) =>
  panel(db, projectId, "calibration", [q.judge], (d) => calibrationPanel(d, q));

export const getProgress = (db: Db, projectId: number) => panel(db, projectId, "progress", [], (d) => progressPanel(d));

export const getSystems = (db: Db, projectId: number, q: TDashboardQuery) =>
  panel(db, projectId, "systems", [q.source, q.judge, q.tag, q.baseline, q.gain], async (d) =>
    systemsPanel(d, await runRankings(db, d), q),
  );

export const getPpi = (db: Db, projectId: number, q: TDashboardQuery) =>
  panel(db, projectId, "ppi", [q.judge, q.tag, q.baseline, q.gain, q.delta, q.halfWidth], async (d) =>
    ppiPanel(d, await runRankings(db, d), q),
  );

/** The chunking grid report (lib/dashboard/chunking-report.ts): the card, and `assessor chunking report`. */
export const getChunkingReport = (
  db: Db,
  projectId: number,
  q: Pick<TDashboardQuery, "gain" | "chunkingBaseline">,
): Promise<TChunkingReport> =>
  panel(db, projectId, "chunkings", [q.chunkingBaseline, q.gain], async (d) => {
    const [rankings, chunkings] = await Promise.all([
      runRankings(db, d),
      db.chunking.findMany({ where: { projectId }, select: { id: true, name: true }, orderBy: { id: "asc" } }),
    ]);
    return chunkingReport(d, rankings, chunkings, { baseline: q.chunkingBaseline, gain: q.gain });
  });

/** The Generation section (lib/dashboard/generation.ts: its own answer and label versions, the chunk reference labels of this version). */
export const getGeneration = (db: Db, projectId: number, q: TDashboardQuery) =>
  generationPanel(db, projectId, { baseline: q.answerBaseline, judge: q.answerJudge, gain: q.gain });

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
