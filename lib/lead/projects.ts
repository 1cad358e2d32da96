import { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import { ZProjectSettings } from "../projects/settings.ts";
import { intId, zText } from "../bounds.ts";
import { saveGuidelines } from "../projects/guidelines.ts";

export const ZProjectCreate = z.object({ name: zText(200).trim().min(1, "a project needs a name") });
export type TProjectCreate = z.infer<typeof ZProjectCreate>;
/** What the lead may change: the settings, and the annotation guidelines (Markdown, shown to annotators with `g`). */
export const ZProjectSettingsPatch = ZProjectSettings.partial().extend({
  guidelines: zText(100_000).max(100_000, "guidelines are limited to 100,000 characters").optional(),
});

export type TProjectSummary = {
  id: number;
  name: string;
  createdAt: string;
  counts: {
    videos: number;
    chunks: number;
    queries: number;
    runs: number;
    poolItems: number;
    judgeLabels: number;
    referenceLabels: number;
  };
};

export async function listProjects(db: Db): Promise<TProjectSummary[]> {
  const rows = await db.project.findMany({
    orderBy: { name: "asc" },
    select: {
      id: true,
      name: true,
      createdAt: true,
      _count: {
        select: {
          videos: true,
          chunks: true,
          queries: true,
          runs: true,
          poolItems: true,
          judgeLabels: true,
          referenceLabels: true,
        },
      },
    },
  });
  return rows.map((p) => ({ id: p.id, name: p.name, createdAt: p.createdAt.toISOString(), counts: p._count }));
}

export async function createProject(db: Db, input: TProjectCreate) {
  try {
    return await db.project.create({ data: { name: input.name } });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("conflict", `a project named "${input.name}" already exists`);
    throw e;
  }
}

export async function getProject(db: Db, id: number) {
  const project = await db.project.findUnique({
    where: { id },
    include: { runs: { select: { id: true, system: true, description: true }, orderBy: { system: "asc" } } },
  });
  if (!project) throw new AppError("not_found", `no project with id ${id}`);
  return project;
}

/** Changes the settings; guidelines that differ from the current ones are saved as a new revision by `authorId` (lib/projects/guidelines.ts). */
export async function updateProjectSettings(
  db: Db,
  id: number,
  patch: z.infer<typeof ZProjectSettingsPatch>,
  authorId: string | null = null,
) {
  await getProject(db, id);
  const { guidelines, ...settings } = patch;
  if (guidelines !== undefined) await saveGuidelines(db, id, guidelines, authorId);
  return db.project.update({ where: { id }, data: settings });
}

/** The project id in a route's params, as a positive 32-bit integer (lib/bounds.ts intId); 404 otherwise. */
export function projectIdParam(raw: unknown): number {
  const id = intId(raw);
  if (id === null) throw new AppError("not_found", `no project with id ${String(raw).slice(0, 40)}`);
  return id;
}
