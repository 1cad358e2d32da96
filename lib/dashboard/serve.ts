import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { projectIdParam } from "../lead/projects.ts";
import type { TDashboardQuery } from "./options.ts";
import { labelSetVersion } from "./load/version.ts";
import {
  getAgreement,
  getBreakdowns,
  getCalibration,
  getChunkingReport,
  getGeneration,
  getHuman,
  getMeta,
  getPpi,
  getProgress,
  getRetest,
  getSystems,
  getTrust,
} from "./panels.ts";

/**
 * The panels served under /api/dashboard/[projectId]/[panel]. `version` is the label-set version
 * alone (lib/dashboard/load/version.ts: a dozen aggregate queries, nothing computed): the page
 * polls it and refetches its panels only when it changed.
 */
export const PANELS = {
  version: async (db: Db, id: number) => ({ version: await labelSetVersion(db, id) }),
  meta: (db: Db, id: number) => getMeta(db, id),
  agreement: getAgreement,
  human: getHuman,
  breakdowns: getBreakdowns,
  calibration: getCalibration,
  progress: (db: Db, id: number) => getProgress(db, id),
  systems: getSystems,
  ppi: getPpi,
  chunkings: getChunkingReport,
  retest: (db: Db, id: number) => getRetest(db, id),
  generation: getGeneration,
  trust: getTrust,
} satisfies Record<string, (db: Db, projectId: number, q: TDashboardQuery) => Promise<unknown>>;
export type TPanelName = keyof typeof PANELS;

/**
 * One panel of one project. A project that does not exist is a 404 for every panel alike, checked
 * here once (one primary-key read) rather than left to each panel's own reads (the Generation
 * panel's answered 500, the retest panel's an empty list).
 */
export async function servePanel(
  db: Db,
  rawProjectId: unknown,
  rawPanel: unknown,
  q: TDashboardQuery,
): Promise<unknown> {
  const projectId = projectIdParam(rawProjectId);
  const name = typeof rawPanel === "string" && Object.hasOwn(PANELS, rawPanel) ? (rawPanel as TPanelName) : null;
  if (!name)
    throw new AppError(
      "not_found",
      `no dashboard panel "${String(rawPanel)}"; panels: ${Object.keys(PANELS).join(", ")}`,
    );
  if (!(await db.project.findUnique({ where: { id: projectId }, select: { id: true } })))
    throw new AppError("not_found", `no project with id ${projectId}`);
  return PANELS[name](db, projectId, q);
}
