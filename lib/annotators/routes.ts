import { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { projectIdParam } from "../lead/projects.ts";
import type { TDashboardData } from "../dashboard/data.ts";
import type { DashboardCache } from "../dashboard/load/cache.ts";
import type { TGradeLabel, TQualityMemo } from "../stats/annotators.ts";
import { abilityModel, type TAbilityModel } from "../stats/annotators-model.ts";
import { annotatorsCsv } from "./csv.ts";
import { dashboardItems } from "./items.ts";
import { annotatorsMain, judgeLabels, type TAnnotatorsMain } from "./report.ts";

/**
 * The Annotators card's query: the judge to compare with (the page's), the time threshold, CSV;
 * `part=model` asks for the ability model alone.
 */
export const ZAnnotatorsQuery = z.object({
  judge: z.string().trim().min(1).max(200).optional(),
  fastSeconds: z.coerce.number().min(0, "fastSeconds: expected 0 or more seconds").max(3600).optional(),
  format: z.enum(["json", "csv"]).default("json"),
  part: z.enum(["model"]).optional(),
});
export type TAnnotatorsQuery = z.infer<typeof ZAnnotatorsQuery>;

/** The card's `part=model` answer: the annotator-ability model (Dawid–Skene), null without grades. */
export type TAnnotatorsModelPart = { model: TAbilityModel | null };

/** Per-annotator rows kept for this many (judge, threshold) views of a project, the latest used. */
const MEMO_VIEWS = 4;

/** The per-annotator memo of one view (judge, threshold), kept in the project's lineage of cache objects. */
function qualityMemo(memos: Map<string, TQualityMemo>, view: string): TQualityMemo {
  let memo = memos.get(view);
  if (memo) memos.delete(view);
  else memo = new Map();
  memos.set(view, memo);
  while (memos.size > MEMO_VIEWS) memos.delete(memos.keys().next().value!);
  return memo;
}

/**
 * A judge's labels (lib/annotators/report.ts judgeLabels), read again only when the dashboard's
 * data says a judge label, an import, a judge run or a question may have changed (its `judges`,
 * `judgeRuns` and `base` are then other objects): a grade does not change them.
 */
function keptJudgeLabels(
  db: Db,
  projectId: number,
  data: TDashboardData,
  cache: DashboardCache,
): (ref: string) => Promise<readonly TGradeLabel[]> {
  type TKept = { judges: object; runs: object; base: object; labels: Promise<TGradeLabel[]> };
  const kept = cache.carried("annotators/judge", () => new Map<string, TKept>());
  return (ref) => {
    let k = kept.get(ref);
    if (!k || k.judges !== data.judges || k.runs !== data.judgeRuns || k.base !== data.base) {
      const labels = judgeLabels(db, projectId, ref);
      const entry: TKept = { judges: data.judges, runs: data.judgeRuns, base: data.base, labels };
      kept.set(ref, (k = entry));
      // A failed read (a judge not found, a probe refused, the database away) is not kept.
      labels.catch(() => {
        if (kept.get(ref) === entry) kept.delete(ref);
      });
      while (kept.size > MEMO_VIEWS) kept.delete(kept.keys().next().value!);
    }
    return k.labels;
  };
}

/**
 * The Annotators card's data (pseudonymous ids: the dashboard is also the adjudicator's, and the
 * card is about grading habits, not people), or its CSV download. The card asks in two requests:
 * without `part`, everything but the ability model (lib/annotators/report.ts annotatorsMain);
 * with `part=model`, the ability model alone, fitted once per label-set version (kept in the
 * dashboard's cache object of that version), so that the rest of the card does not wait for it.
 * Both are computed from the items of the dashboard's data (lib/annotators/items.ts); the main
 * part's per-annotator rows are kept from one version to the next, so that after a label change
 * only the rows of the annotators who graded a changed item are computed again. The CSV holds
 * both; `part=model` with CSV is refused.
 */
export async function annotatorsCard(
  db: Db,
  rawProjectId: unknown,
  q: TAnnotatorsQuery,
): Promise<TAnnotatorsMain | TAnnotatorsModelPart | Response> {
  const projectId = projectIdParam(rawProjectId);
  if (q.part === "model" && q.format === "csv")
    throw new AppError(
      "bad_input",
      "part=model answers the ability model alone, as JSON; the CSV (format=csv without part) holds every figure, the model's too",
    );
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
  const { data, cache, items, name } = await dashboardItems(db, projectId);
  const model = () => cache.memo("annotators/model", () => abilityModel(items.items));
  if (q.part === "model") return { model: model() };
  const fastMs = q.fastSeconds === undefined ? undefined : q.fastSeconds * 1000;
  const memos = cache.carried("annotators/quality", () => new Map<string, TQualityMemo>());
  const memo = qualityMemo(memos, JSON.stringify([q.judge ?? null, fastMs ?? null]));
  const main = await annotatorsMain(
    db,
    projectId,
    items,
    name,
    { judge: q.judge, fastMs },
    { memo, readJudge: keptJudgeLabels(db, projectId, data, cache) },
  );
  if (q.format === "json") return main;
  return new Response(annotatorsCsv({ ...main, model: model() }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="annotators-project-${projectId}.csv"`,
    },
  });
}
