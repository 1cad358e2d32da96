import { z } from "zod";

/** Project settings as the lead edits them (CLI `project create`/`project set`, lead pages). */
export const ZProjectSettings = z.object({
  poolDepth: z.number().int().min(1).max(1000),
  annotatorsPerItem: z.number().int().min(1).max(10),
  disagreementRule: z.enum(["any_difference", "distance_two", "relevance_threshold"]),
  startToleranceSeconds: z.number().min(0).max(3600),
  calibrationTarget: z.number().int().min(1).max(100000),
  minPerGrade: z.number().int().min(0).max(100000),
});
export type TProjectSettings = z.infer<typeof ZProjectSettings>;
