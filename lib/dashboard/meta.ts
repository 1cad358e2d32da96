import type { TDashboardData } from "./data.ts";
import { judgeStates, type TJudgeState } from "./judges.ts";

/** What the header's selectors offer: judges, runs, tags; and the label-set version. */
export type TMeta = {
  project: { id: number; name: string };
  version: string;
  /** Names sorted, each with its coverage of the pool and its run's status (lib/dashboard/judges.ts). */
  judges: TJudgeState[];
  /** The judge the panels use when the viewer picks none: the most recent complete one. */
  defaultJudge: string | null;
  runs: { id: number; system: string }[];
  tags: string[];
  humanLabels: number;
};

export function metaPanel(d: TDashboardData): TMeta {
  const { states, defaultJudge } = judgeStates(d);
  return {
    project: { id: d.project.id, name: d.project.name },
    version: d.version,
    judges: states,
    defaultJudge,
    runs: d.runs.map((r) => ({ id: r.id, system: r.system })),
    tags: d.tags,
    humanLabels: d.reference.length,
  };
}
