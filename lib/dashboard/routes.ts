import "server-only";
import { z } from "zod";
import { assign } from "../assignment/assign.ts";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { projectIdParam } from "../lead/projects.ts";

export { PANELS, servePanel, type TPanelName } from "./serve.ts";

export async function listDashboardProjects(db: Db) {
  return db.project.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
}

export const ZSampleRequest = z.object({
  /** How many more pool items to sample for calibration. */
  n: z.number().int().min(1).max(100000),
  /** "items" (default): n pool items; "questions": n whole questions, every pooled item of each (for PPI). */
  unit: z.enum(["items", "questions"]).optional(),
  /** Annotators per item (default: the project's setting). */
  perItem: z.number().int().min(1).max(10).optional(),
  /** With unit "items": the pairs whose samples disagree in this judge run (test–retest) first. */
  unstableFrom: z.string().min(1).max(200).optional(),
  seed: z.number().int().optional(),
});

/**
 * Samples more items for calibration: lib/assignment's calibration sample (the grades and tags
 * short of the minimum per grade first, then spread over judge grades and queries), assigned to
 * the project's annotators.
 */
export async function sampleForCalibration(db: Db, rawProjectId: unknown, body: z.infer<typeof ZSampleRequest>) {
  const projectId = projectIdParam(rawProjectId);
  const project = await db.project.findUnique({ where: { id: projectId }, select: { annotatorsPerItem: true } });
  if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
  const perItem = body.perItem ?? project.annotatorsPerItem;
  // The calibration card counts the unassigned pool items as `assessor status` does and, apart,
  // those with an imported label: its sample draws from both (re-grading an imported label is a
  // calibration of it, as `assign --include-labelled`), so the card's suggestion and its button agree.
  return body.unit === "questions"
    ? assign(db, projectId, { perItem, sampleQueries: body.n, seed: body.seed, includeLabelled: true })
    : assign(db, projectId, {
        perItem,
        sample: body.n,
        seed: body.seed,
        unstableFrom: body.unstableFrom,
        includeLabelled: true,
      });
}
