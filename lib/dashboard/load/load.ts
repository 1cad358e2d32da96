/**
 * One load of a project's dashboard data for a label-set version, from the previous load's
 * sections where their tables did not change (lib/dashboard/data.ts caches the result).
 */
import type { Db } from "../../db/client.ts";
import type { TDashboardData } from "../model.ts";
import type { DashboardCache } from "./cache.ts";
import { importIndex } from "./imports.ts";
import { itemStates, referenceAndStages } from "./item-states.ts";
import { projectJudgements } from "./judgements.ts";
import { loadUsers, projectSettings, readSections, type TSections } from "./sections.ts";

export async function load(
  db: Db,
  projectId: number,
  version: string,
  parts: string[],
  previous: TSections | undefined,
  cache: DashboardCache,
): Promise<{ data: TDashboardData; sections: TSections }> {
  const { projectRow, read } = await readSections(db, projectId, parts, previous);
  const { base, judges, judgeInfo, imported, assignments, adjudications, disputed, judgements: judgementState } = read;
  const { project, settings } = projectSettings(projectRow, projectId);
  const { poolItems } = base;
  const { assigned, assignedByUser } = assignments;
  const { judgements, byItem } = projectJudgements(judgementState, poolItems);
  const index = importIndex(base, imported, previous?.importIndex);
  const { items, changedQueries } = itemStates(
    { base, settings, index, byItem, adjudications, disputed, assignments, judgementState },
    previous?.items,
    previous?.judgements,
  );
  const { reference, stages } = referenceAndStages(items, index, poolItems.size);
  const users = await loadUsers(db, [
    ...new Set<string>([...assignedByUser.keys(), ...judgements.map((j) => j.userId)]),
  ]);

  const data: TDashboardData = {
    version,
    base,
    project,
    queries: base.queries,
    tags: base.tags,
    chunks: base.chunks,
    reference,
    stages,
    judges,
    judgeRuns: judgeInfo.judgeRuns,
    judgeLabelledAt: judgeInfo.judgeLabelledAt,
    poolItems,
    provenance: base.provenance,
    assigned,
    assignedByUser,
    judgements,
    judgementsByItem: byItem,
    referenceChanges:
      previous && changedQueries && judges === previous.judges
        ? { from: previous.version, queries: changedQueries }
        : null,
    adjudicated: new Set(adjudications.keys()),
    itemStates: items,
    users,
    runs: base.runs,
    cache,
  };
  return {
    data,
    sections: { version, parts, ...read, importIndex: index, items },
  };
}
